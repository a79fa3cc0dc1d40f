import { SvcError } from "../errors/svc-error.ts";
import type { RefusalCache } from "./refusals.ts";
import {
  afterStoreError,
  decideAtOnce,
  enforceVerdict,
  type GateHeaders,
  type LimiterLike,
  NO_GATE_HEADERS,
  type RateLimitVerdict,
  TOO_MANY_REQUESTS,
} from "./verdicts.ts";

/**
 * What a REST call carries to its shard for its rate-limit gate to be decided
 * there ({@link decideInShard}). Plain data: it crosses JS RPC.
 *
 * @example
 * ```ts
 * const gate: ShardGateCall = { id: "rest#0", key: "203.0.113.7" };
 * ```
 */
export interface ShardGateCall {
  /** The gate's id, the same in every isolate of the app: its rate's name and creation order. */
  id: string;
  /** The bucket key, made in the worker from the request. */
  key: string;
}

/**
 * What the shard made of a call's {@link ShardGateCall}, sent back with its
 * answer. Its presence says the shard understood the gate.
 *
 * - `verdict` with `ok`: the procedure ran; with `ok: false`: it did not.
 * - neither field: the store was out, and the call ran under `allow` (or its
 *   answer's error is the `503` of `deny`).
 * - `unknown`: the shard's isolate has no gate of that id; the call did not
 *   run, and the worker decides it itself.
 *
 * @example
 * ```ts
 * const answer: ShardGateAnswer = { verdict: { ok: true, retryAfter: 0, limit: 60, remaining: 59, resetAfter: 60_000 } };
 * ```
 */
export interface ShardGateAnswer {
  verdict?: RateLimitVerdict;
  unknown?: true;
}

/** What a gate decided in the shard needs there, and the worker's side of it. */
export interface ShardGateSpec {
  readonly limiter: LimiterLike;
  /** The limiter's named rate. */
  readonly name: string;
  readonly onStoreError: "allow" | "deny";
  /** Keys refused lately: refused again in the worker, before the shard is called. */
  readonly refusals: RefusalCache;
  /** The bucket key of a request: the gate's `key` option, or the caller's address. */
  readonly keyOf: (request: Request, functionPath: string) => string | Promise<string>;
  /** The worker's own decision of a key: what the gate does when a shard does not know it. */
  readonly decideHere: (key: string) => GateHeaders;
}

/** A registered gate: its spec, its id, and whether its shards decide it. */
interface ShardDecidedGate extends ShardGateSpec {
  readonly id: string;
  /** False once a shard did not know the gate: this isolate decides it itself from then on. */
  inShard: boolean;
}

/**
 * Most gates one isolate registers. Gates are made once, at module scope;
 * one made per request would otherwise fill the registry. Those past the
 * bound are decided in the worker.
 */
const MAX_SHARD_GATES = 1_000;

/** Gates by id: how a shard finds the gate a call names. */
const gatesById = new Map<string, ShardDecidedGate>();
/** Gates by the object `createRestRateLimit` answered: how admission finds its own. */
const gatesByObject = new WeakMap<object, ShardDecidedGate>();
/** Gates registered per rate name so far: the ordinal of a gate's id. */
const gatesPerName = new Map<string, number>();

/**
 * Makes `gate` decidable in its calls' shards. The shard finds it by id in
 * its own isolate, which ran the same module code: the id is the rate's
 * name and the number of gates of that name made before it, the same in
 * every isolate of one deployment when gates are made at module scope.
 *
 * @example
 * ```ts
 * registerShardGate(gate, { limiter, name: "rest", onStoreError: "allow", refusals, keyOf, decideHere });
 * ```
 */
export function registerShardGate(gate: object, spec: ShardGateSpec): void {
  if (gatesById.size >= MAX_SHARD_GATES) return;
  const ordinal = gatesPerName.get(spec.name) ?? 0;
  gatesPerName.set(spec.name, ordinal + 1);
  const registered: ShardDecidedGate = { ...spec, id: `${spec.name}#${ordinal}`, inShard: true };
  gatesById.set(registered.id, registered);
  gatesByObject.set(gate, registered);
}

/** Where admission leaves the {@link ShardGateCall} of a call whose gate its shard decides. */
export interface ShardGated {
  shardGate?: ShardGateCall;
}

/**
 * The worker's step of a gate its shard decides: a key refused lately is
 * refused here (429, thrown), a leased rate's lease pays at once, and
 * otherwise the call's {@link ShardGateCall} is left in `into` and no
 * headers are answered yet (the shard's answer brings them). `undefined`
 * when `gate` is not decided in shards: admission then asks its `check`.
 *
 * @example
 * ```ts
 * const headers = deferToShard(runtime.restRateLimit, request, "messages:list", door) ?? gate.check(request, path);
 * ```
 */
export function deferToShard(
  gate: object,
  request: Request,
  functionPath: string,
  into: ShardGated,
): GateHeaders | undefined {
  const decided = gatesByObject.get(gate);
  if (decided === undefined || !decided.inShard) return undefined;
  const key = decided.keyOf(request, functionPath);
  if (typeof key === "string") return deferKey(decided, key, into);
  return Promise.resolve(key).then((resolved) => deferKey(decided, resolved, into));
}

/** {@link deferToShard} once the key is known. */
function deferKey(
  decided: ShardDecidedGate,
  key: string,
  into: ShardGated,
): Record<string, string> {
  const { limiter, name, refusals } = decided;
  const atOnce = decideAtOnce(limiter, name, key, TOO_MANY_REQUESTS, refusals);
  if (atOnce !== undefined) return atOnce;
  into.shardGate = { id: decided.id, key };
  return NO_GATE_HEADERS;
}

/** The answer of a shard whose isolate has no gate of the call's id. */
const UNKNOWN_GATE: ShardGateAnswer = Object.freeze({ unknown: true });
/** The answer of a call admitted while the store was out (`allow`): no verdict, no headers. */
const NO_VERDICT: ShardGateAnswer = Object.freeze({});

/**
 * Decides a call's gate in its shard, before the procedure runs. `owner` is
 * the shard's `ctx`: the shard's concurrent calls of a key share one store
 * call and await its promise (`@svc/ratelimit`'s `inObject`), where in the
 * worker each call wakes on timers of its own (measured: +2 % CPU per
 * request against +31 %, BENCHMARKS.md section 2). Rejects with
 * `UNAVAILABLE` when the store is out under `deny`, and with a limiter's
 * configuration error.
 *
 * @example
 * ```ts
 * const answer = await decideInShard(call.gate, this.ctx);
 * if (answer.verdict?.ok === false) return refused(answer);
 * ```
 */
export function decideInShard(call: ShardGateCall, owner: object): Promise<ShardGateAnswer> {
  const gate = gatesById.get(call.id);
  if (gate === undefined) return Promise.resolve(UNKNOWN_GATE);
  let verdict: Promise<RateLimitVerdict>;
  try {
    const local = gate.limiter.spendLease?.(gate.name, { key: call.key });
    verdict =
      local !== undefined
        ? Promise.resolve(local)
        : gate.limiter.limit(gate.name, { key: call.key, inObject: owner });
  } catch (error) {
    verdict = Promise.reject(error);
  }
  return verdict.then(asAnswer, (error: unknown) => {
    afterStoreError(error, gate.onStoreError);
    return NO_VERDICT;
  });
}

/** A verdict as the shard sends it back. */
function asAnswer(verdict: RateLimitVerdict): ShardGateAnswer {
  return { verdict };
}

/**
 * The `RateLimit-*` headers of a call its shard admitted, made as the
 * worker's own gate makes them; a refusal is noted for the key (its next
 * calls are refused in the worker until its `retryAfter` from `sentAt`, when
 * the worker sent the call: the shard decided later) and thrown as the same
 * `RATE_LIMITED` (429). No verdict (the store was out) sets no headers.
 *
 * @example
 * ```ts
 * const sentAt = Date.now();
 * const result = await stub.call(call);
 * const headers = shardGateHeaders(call.gate, result.gate, sentAt);
 * ```
 */
export function shardGateHeaders(
  call: ShardGateCall,
  answer: ShardGateAnswer,
  sentAt: number,
): Record<string, string> {
  const { verdict } = answer;
  if (verdict === undefined) return NO_GATE_HEADERS;
  if (!verdict.ok) gatesById.get(call.id)?.refusals.note(call.key, verdict, sentAt);
  return enforceVerdict(verdict, TOO_MANY_REQUESTS);
}

/**
 * The worker's decision of a call its shard did not know the gate of (the
 * gate was made after module load, so the shard's isolate has none by that
 * id): this isolate decides the gate itself from now on.
 *
 * @example
 * ```ts
 * const headers = await decideInWorker(call.gate);
 * ```
 */
export function decideInWorker(call: ShardGateCall): GateHeaders {
  const gate = gatesById.get(call.id);
  // Closed: a ticket is only ever made from this isolate's own registry.
  if (gate === undefined) throw new SvcError("INTERNAL", "svc: a REST gate ticket names no gate.");
  gate.inShard = false;
  return gate.decideHere(call.key);
}

/**
 * A call whose gate was left to its shard but failed before reaching it
 * (identity, reach, an API key's scopes, its arguments): the gate is
 * decided now, in the worker, so such calls are counted too, and a caller
 * over its limit gets the `429` it would have got first with the gate
 * decided in the worker, not the error (a refused caller cannot probe
 * credentials or arguments). Rejects with the 429, or else with `error`.
 *
 * @example
 * ```ts
 * answer.catch((error) => (door.shardGate ? decideAfterEarlyFailure(door.shardGate, error) : Promise.reject(error)));
 * ```
 */
export function decideAfterEarlyFailure(call: ShardGateCall, error: unknown): Promise<never> {
  const gate = gatesById.get(call.id);
  if (gate === undefined) return Promise.reject(error);
  let deciding: Promise<unknown>;
  try {
    deciding = Promise.resolve(gate.decideHere(call.key));
  } catch (decisionError) {
    deciding = Promise.reject(decisionError);
  }
  return deciding.then(
    () => Promise.reject(error),
    (refusal: unknown) => Promise.reject(isRateLimited(refusal) ? refusal : error),
  );
}

/** The gate's own refusal (`RATE_LIMITED`), not an outage or a mistake: that replaces the call's error. */
function isRateLimited(error: unknown): boolean {
  return error instanceof SvcError && error.code === "RATE_LIMITED";
}

/**
 * Counts a call that a shard of an earlier svc ran without deciding its gate
 * (during a rollout, when the worker is newer than the shard): its unit is
 * spent now, and the answer gets the headers when the rate still had it.
 * The call already ran, so a refusal here only keeps the count exact.
 *
 * @example
 * ```ts
 * const headers = await countAfterRun(call.gate);
 * ```
 */
export function countAfterRun(call: ShardGateCall): Promise<Record<string, string>> {
  const gate = gatesById.get(call.id);
  if (gate === undefined) return Promise.resolve(NO_GATE_HEADERS);
  return Promise.resolve()
    .then(() => gate.limiter.limit(gate.name, { key: call.key }))
    .then(
      (verdict) => (verdict.ok ? enforceVerdict(verdict, TOO_MANY_REQUESTS) : NO_GATE_HEADERS),
      () => NO_GATE_HEADERS,
    );
}
