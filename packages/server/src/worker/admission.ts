import type { SvcError } from "../errors/svc-error.ts";
import type { ApiKeyRateLimitGate } from "../limits/api-key-rate-limit.ts";
import { deferToShard, type ShardGated } from "../limits/shard-gate.ts";
import type { SocketRateLimitGate } from "../limits/socket-rate-limit.ts";
import { type GateHeaders, NO_GATE_HEADERS } from "../limits/verdicts.ts";
import { refuseOutOfScope, type ScopeTarget } from "../model/api-key.ts";
import type { Identity } from "../model/identity.ts";
import { DEFAULT_SHARD, shardKeyOf } from "../model/shard-key.ts";
import { noteCall } from "../observability/call-scope.ts";
import { callerOf } from "../observability/caller.ts";
import { tracingEnabled, withDispatchSpan } from "../telemetry.ts";
import { refuseCrossSiteCookies } from "./cross-site.ts";
import type { WorkerRuntime } from "./runtime.ts";
import { EVERY_SHARD } from "./shard-access.ts";

/** The entry points that admit calls from clients. */
export type DoorTransport = "rpc" | "rest" | "ws" | "http";

/**
 * A request as its entry point's adapter read it: which door it came through
 * and what it names. The adapter has checked only the envelope (method,
 * content type, upgrade); everything that decides whether the call may run
 * is {@link admit}'s.
 *
 * @example
 * ```ts
 * const door: Door<Env, AnyProcedure> = {
 *   transport: "rpc", request, url, env, target: "messages:list",
 *   resolved: runtime.functions["messages:list"], notFound: () => new SvcError("NOT_FOUND", "No such procedure."),
 * };
 * ```
 */
export interface Door<Env, Target> extends ShardGated {
  transport: DoorTransport;
  request: Request;
  url: URL;
  env: Env;
  /**
   * What the request names: a procedure path (`messages:list`, known or
   * not), `*` for a socket (any public query), `METHOD /pattern` for an HTTP
   * action. Rate-limit keys and `shardAccess` receive it.
   */
  target: string;
  /** What `target` resolved to (a public procedure, a route); `undefined` when it names nothing. */
  resolved: Target | undefined;
  /**
   * Whether the cross-site (CSRF) rule runs. HTTP actions skip it for safe
   * methods and for origins their CORS policy trusts with credentials.
   * @default true
   */
  crossSiteCheck?: boolean;
  /** The request the identity is read from, when not `request` (a socket's `svc.bearer` subprotocol). */
  credentials?: Request;
  /**
   * What an API key's scopes must cover to pass (the procedure and its kind;
   * `path: null` for an HTTP action). Absent for a socket: each subscription
   * is checked in its shard.
   */
  scope?: ScopeTarget;
  /** This door's answer to a target that names nothing: a refused shard answers exactly this. */
  notFound(): SvcError;
}

/** What admission found out about a call it let through. */
export interface Admitted<Target = unknown> {
  /** What the door's target resolved to. */
  target: Target;
  identity: Identity | null;
  /** The shard the call names (`default` for HTTP actions, which name shards per `ctx.run*`). */
  shardKey: string;
  /** The `RateLimit-*` headers of the gates passed; they go on a successful answer only. */
  limitHeaders: Record<string, string>;
}

/**
 * A hook's answer as it came: a promise (or another thenable) is awaited,
 * a plain value is used as is, which spares the call an `await` turn per
 * step when no gate, resolver or access hook needs one (the defaults).
 */
function isPending<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * Limits keyed by the request (its address), before the identity costs a
 * lookup. A REST call of a known procedure, on a shard every caller may
 * reach, leaves its gate to the shard (`decideIn`, limits/shard-gate.ts):
 * here only a key refused lately is refused, and `door.shardGate` is set.
 */
function requestGate<Env>(runtime: WorkerRuntime<Env>, door: Door<Env, unknown>): GateHeaders {
  switch (door.transport) {
    case "rest": {
      const gate = runtime.restRateLimit;
      if (gate === undefined) return NO_GATE_HEADERS;
      if (door.resolved !== undefined && runtime.shardAccess === EVERY_SHARD) {
        const deferred = deferToShard(gate, door.request, door.target, door);
        if (deferred !== undefined) return deferred;
      }
      return gate.check(door.request, door.target);
    }
    case "rpc":
      return runtime.rpcRateLimit?.check(door.request, door.target) ?? NO_GATE_HEADERS;
    case "ws":
      return runtime.socketRateLimit === undefined
        ? NO_GATE_HEADERS
        : addressGate(runtime.socketRateLimit, door.request);
    case "http":
      return NO_GATE_HEADERS;
  }
}

/** A socket open's limit per address: awaited as any gate's answer, and no headers (an upgrade keeps its own). */
async function addressGate(
  gate: SocketRateLimitGate,
  request: Request,
): Promise<Record<string, string>> {
  await gate.admitAddress(request);
  return NO_GATE_HEADERS;
}

/**
 * Limits keyed by the caller, once known: socket opens per user, calls per
 * API key (a key's socket passes both). Answered at once, with no promise,
 * when no such gate applies to this caller (the usual REST and RPC call).
 */
function callerGate<Env>(
  runtime: WorkerRuntime<Env>,
  door: Door<Env, unknown>,
  identity: Identity | null,
): GateHeaders {
  if (identity === null) return NO_GATE_HEADERS;
  const socketGate = door.transport === "ws" ? runtime.socketRateLimit : undefined;
  const { apiKey } = identity;
  const keyGate = apiKey === undefined ? undefined : runtime.apiKeyRateLimit;
  if (socketGate === undefined && keyGate === undefined) return NO_GATE_HEADERS;
  return passCallerGates(socketGate, keyGate, identity, door.target);
}

/** The caller's gates that apply, in order: the socket's per-user limit, then the API key's. */
async function passCallerGates(
  socketGate: SocketRateLimitGate | undefined,
  keyGate: ApiKeyRateLimitGate | undefined,
  identity: Identity,
  target: string,
): Promise<Record<string, string>> {
  await socketGate?.admitUser(identity);
  const { apiKey } = identity;
  if (keyGate === undefined || apiKey === undefined) return NO_GATE_HEADERS;
  return keyGate.check(apiKey, target);
}

/**
 * Both gates' headers in one record, `second`'s over `first`'s; the one that
 * set none adds nothing (no copy).
 *
 * @example const headers = mergeLimitHeaders(shardGateHeaders, takeLimitHeaders(admitted));
 */
export function mergeLimitHeaders(
  first: Record<string, string>,
  second: Record<string, string>,
): Record<string, string> {
  if (second === NO_GATE_HEADERS) return first;
  if (first === NO_GATE_HEADERS) return second;
  return { ...first, ...second };
}

/**
 * svc's one admission step, the same for RPC, REST, WebSocket upgrades and
 * HTTP actions, in one order:
 *
 * 1. cross-site check: cookies sent by another site are CSRF (`FORBIDDEN`);
 * 2. shard key (`BAD_REQUEST` when malformed; HTTP actions name none);
 * 3. gates keyed by the request (REST, RPC, socket opens per address),
 *    before the identity costs a lookup; a REST gate decided in the shard
 *    only refuses a key refused lately here, and the shard decides the rest
 *    just before the procedure runs (see `createRestRateLimit`'s `decideIn`);
 * 4. identity (`resolveIdentity`), the caller of the call's record (an API
 *    key's id when a key calls);
 * 5. reach: a target that names nothing and a shard `shardAccess` refuses
 *    get the same answer (the door's `notFound`) at the same step, so
 *    neither bytes nor timing tell them apart;
 * 6. gates keyed by the caller (socket opens per user, calls per API key);
 * 7. an API key's scopes (`FORBIDDEN` for what they do not cover).
 *
 * Arguments and invocation are the door's: they follow admission.
 *
 * When no step waits (no gate, resolver or `shardAccess` hook answered with
 * a promise: the usual call) the admitted call comes back as a value and a
 * refusal is thrown; otherwise both come as the promise's value or
 * rejection. Callers `await` it either way, inside their `try`.
 *
 * @example
 * ```ts
 * const { identity, shardKey } = await admit(door, runtime); // a value or a promise
 * ```
 */
export function admit<Env, Target>(
  door: Door<Env, Target>,
  runtime: WorkerRuntime<Env>,
): Admitted<Target> | Promise<Admitted<Target>> {
  const { request, url, transport } = door;
  if (door.crossSiteCheck !== false) refuseCrossSiteCookies(request, url);
  const shardKey = transport === "http" ? DEFAULT_SHARD : shardKeyOf(request, url);
  if (transport !== "http") noteCall(request, { shardKey });
  const gate = requestGate(runtime, door);
  // Each step goes on at once when the one before answered without a promise (the usual call:
  // no gate to wait for, an identity known without I/O): no promise and no turn of its own.
  if (isPending(gate))
    return gate.then((requestLimits) => identify(door, runtime, shardKey, requestLimits));
  return identify(door, runtime, shardKey, gate);
}

/** Admission's steps 4 and 5: the identity, then the reach of the target and the shard. */
function identify<Env, Target>(
  door: Door<Env, Target>,
  runtime: WorkerRuntime<Env>,
  shardKey: string,
  requestLimits: Record<string, string>,
): Admitted<Target> | Promise<Admitted<Target>> {
  const resolving = runtime.resolveIdentity(door.credentials ?? door.request, door.env);
  if (isPending(resolving))
    return Promise.resolve(resolving).then((identity) =>
      reach(door, runtime, shardKey, requestLimits, identity),
    );
  return reach(door, runtime, shardKey, requestLimits, resolving);
}

/** Step 5: an unknown target and a refused shard get the door's same `notFound`. */
function reach<Env, Target>(
  door: Door<Env, Target>,
  runtime: WorkerRuntime<Env>,
  shardKey: string,
  requestLimits: Record<string, string>,
  identity: Identity | null,
): Admitted<Target> | Promise<Admitted<Target>> {
  const { request, transport, resolved } = door;
  noteCall(request, { caller: callerOf(identity) });
  if (resolved === undefined) throw door.notFound();
  if (transport !== "http" && runtime.shardAccess !== EVERY_SHARD) {
    const access = { identity, shardKey, path: door.target, transport, request, env: door.env };
    const deciding = runtime.shardAccess(access);
    if (isPending(deciding))
      return Promise.resolve(deciding).then((allowed) => {
        if (!allowed) throw door.notFound();
        return passCaller(door, runtime, shardKey, requestLimits, identity, resolved);
      });
    if (!deciding) throw door.notFound();
  }
  return passCaller(door, runtime, shardKey, requestLimits, identity, resolved);
}

/** Steps 6 and 7: the caller's gates, then an API key's scopes. */
function passCaller<Env, Target>(
  door: Door<Env, Target>,
  runtime: WorkerRuntime<Env>,
  shardKey: string,
  requestLimits: Record<string, string>,
  identity: Identity | null,
  target: Target,
): Admitted<Target> | Promise<Admitted<Target>> {
  const callerGated = callerGate(runtime, door, identity);
  // No named closure: the bundler's keepNames would wrap it in `__name`, a property definition per call.
  if (isPending(callerGated))
    return callerGated.then((callerLimits) =>
      admittedCall(door, target, identity, shardKey, requestLimits, callerLimits),
    );
  return admittedCall(door, target, identity, shardKey, requestLimits, callerGated);
}

/** Step 7, an API key's scopes, and what admission found. */
function admittedCall<Target>(
  door: Door<unknown, Target>,
  target: Target,
  identity: Identity | null,
  shardKey: string,
  requestLimits: Record<string, string>,
  callerLimits: Record<string, string>,
): Admitted<Target> {
  if (door.scope !== undefined) refuseOutOfScope(identity?.apiKey, door.scope);
  return {
    target,
    identity,
    shardKey,
    limitHeaders: mergeLimitHeaders(requestLimits, callerLimits),
  };
}

/** What an admitted call's `limitHeaders` are once its door took them for its answer. */
const TAKEN: Record<string, string> = Object.freeze({});

/**
 * Whether a gate set headers for the admitted call's answer: a caller with
 * none to add answers with no step of its own to take them.
 *
 * @example const answer = hasLimitHeaders(admitted) ? withTheirHeaders : jsonResponse;
 */
export function hasLimitHeaders(admitted: Admitted): boolean {
  return admitted.limitHeaders !== NO_GATE_HEADERS;
}

/**
 * The gates' `RateLimit-*` headers for an answer the door builds itself
 * (`jsonResponse`'s `limitHeaders`), so {@link throughDoor} sets none on it
 * afterwards: that read the answer's headers and set each one again.
 *
 * @example return jsonResponse(value, { limitHeaders: takeLimitHeaders(admitted) });
 */
export function takeLimitHeaders(admitted: Admitted): Record<string, string> {
  const headers = admitted.limitHeaders;
  admitted.limitHeaders = TAKEN;
  return headers;
}

/**
 * The gates' headers on a successful answer. An upgrade (101) keeps its own;
 * an answer whose headers are immutable (an HTTP action passing a `fetch`
 * through) is copied first.
 */
function withLimitHeaders(response: Response, headers: Record<string, string>): Response {
  if (headers === TAKEN || headers === NO_GATE_HEADERS) return response;
  const entries = Object.entries(headers);
  if (entries.length === 0 || response.status === 101) return response;
  let answer = response;
  try {
    answer.headers.set(entries[0]![0], entries[0]![1]);
  } catch {
    answer = new Response(response.body, response);
  }
  for (const [name, value] of entries) answer.headers.set(name, value);
  return answer;
}

/**
 * Runs a call through its door: {@link admit}, then the door's `invoke` with
 * what admission found, in a dispatch span once the target is known (never
 * for an unknown one: its raw name would be an unbounded span route). The
 * gates' `RateLimit-*` headers go on the successful answer only (not on a
 * socket's upgrade); an error
 * carries none but its own (a 429 has the gate's), so two refusals of the
 * same kind answer the same bytes whatever the caller's bucket holds.
 *
 * @example
 * ```ts
 * return throughDoor(door, runtime, ({ target, identity, shardKey }) =>
 *   invokeJson({ ...call, procedure: target, identity, shardKey }, restAnswer));
 * ```
 */
export function throughDoor<Env, Target>(
  door: Door<Env, Target>,
  runtime: WorkerRuntime<Env>,
  invoke: (admitted: Admitted<Target>) => Promise<Response>,
): Promise<Response> {
  // Without an OpenTelemetry SDK no span starts: no span facts and no closure per call.
  if (door.resolved === undefined || door.transport === "ws" || !tracingEnabled())
    return admitAndInvoke(door, runtime, invoke);
  const info = {
    urlPath: door.url.pathname,
    route: door.target,
    method: door.request.method,
    transport: door.transport,
  };
  return withDispatchSpan(info, () => admitAndInvoke(door, runtime, invoke));
}

/**
 * {@link admit}, then the door's `invoke`; the gates' headers on its
 * successful answer. No `async` layer: a refusal during a synchronous
 * admission is thrown to the caller (inside the worker's `try`), and a call
 * no gate set headers on is answered by `invoke` as it comes, with no
 * promise and no turn of this function's own.
 */
function admitAndInvoke<Env, Target>(
  door: Door<Env, Target>,
  runtime: WorkerRuntime<Env>,
  invoke: (admitted: Admitted<Target>) => Promise<Response>,
): Promise<Response> {
  const admitting = admit(door, runtime);
  if (isPending(admitting)) return admitting.then((admitted) => invokeAdmitted(admitted, invoke));
  return invokeAdmitted(admitting, invoke);
}

/** The door's `invoke`; the gates' headers (when any gate set some) on its successful answer. */
function invokeAdmitted<Target>(
  admitted: Admitted<Target>,
  invoke: (admitted: Admitted<Target>) => Promise<Response>,
): Promise<Response> {
  if (!hasLimitHeaders(admitted)) return invoke(admitted);
  return invoke(admitted).then((response) => withLimitHeaders(response, admitted.limitHeaders));
}
