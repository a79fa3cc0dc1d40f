import { SvcError } from "../errors/svc-error.ts";
import { readJsonArgs } from "../http/body.ts";
import { argsFromQuery } from "../http/query-args.ts";
import { type JsonResponseInit, jsonTextResponse } from "../http/responses.ts";
import { decideAfterEarlyFailure } from "../limits/shard-gate.ts";
import { queryPairs } from "../model/query-pairs.ts";
import { SHARD_KEY_PARAM } from "../model/shard-key.ts";
import { noteArgs, noteCall } from "../observability/call-scope.ts";
import type { AnyProcedure } from "../procedures/procedure.ts";
import { REST_PREFIX, type RoutedProcedure } from "../procedures/rest-routes.ts";
import {
  type Admitted,
  type Door,
  hasLimitHeaders,
  mergeLimitHeaders,
  takeLimitHeaders,
  throughDoor,
} from "../worker/admission.ts";
import { invokeGatedJson, invokeJson } from "../worker/invoke.ts";
import type { WorkerRuntime } from "../worker/runtime.ts";

/** What a REST path resolves to: its route, with the procedure's path and the procedure. */
type RestTarget = RoutedProcedure<AnyProcedure>;

/**
 * The one 404 of the REST surface: unknown paths, unexposed, internal and
 * stream procedures and refused shards all get exactly these bytes, so
 * probing cannot tell them apart.
 */
const notFound = () => new SvcError("NOT_FOUND", "Not found.");

/**
 * The procedure path a REST path names, routed or not (`/_svc/rest/admin/users/list`
 * → `admin/users:list`): what the rate-limit key function receives, so an
 * unknown path is counted like a known one.
 */
function namedPath(pathname: string): string {
  const rest = pathname.slice(REST_PREFIX.length);
  const cut = rest.lastIndexOf("/");
  return cut <= 0 ? rest : `${rest.slice(0, cut)}:${rest.slice(cut + 1)}`;
}

/** A REST POST's arguments: the JSON body; the query string names the shard only. */
function bodyArgs(request: Request, url: URL, maxBodyBytes: number): Promise<unknown> {
  const pairs = queryPairs(url);
  for (let index = 0; index < pairs.length; index += 2) {
    if (pairs[index] === SHARD_KEY_PARAM) continue;
    throw new SvcError(
      "BAD_REQUEST",
      `POST arguments go in the JSON body, not the query string (${JSON.stringify(pairs[index])}).`,
    );
  }
  return readJsonArgs(
    request,
    maxBodyBytes,
    "REST POST bodies must have content-type: application/json.",
  );
}

/**
 * The admitted call: its arguments, then the shard's answer as JSON. A GET
 * (the query string's arguments) runs with no `async` layer: a refusal of
 * its arguments is thrown to the worker's `try`, and the answer is built in
 * the call's own step.
 */
function invokeRest<Env>(
  admitted: Admitted<RestTarget>,
  door: Door<Env, RestTarget>,
  method: string,
  runtime: WorkerRuntime<Env>,
): Promise<Response> {
  const { request, url } = door;
  if (method !== "GET")
    return bodyArgs(request, url, runtime.maxBodyBytes).then((args) =>
      callRestShard(args, admitted, door, runtime),
    );
  return callRestShard(
    argsFromQuery(url, admitted.target.procedure.args.shape),
    admitted,
    door,
    runtime,
  );
}

/** The call with its arguments, sent to its shard; the value answered as JSON with the gates' headers. */
function callRestShard<Env>(
  args: unknown,
  admitted: Admitted<RestTarget>,
  door: Door<Env, RestTarget>,
  runtime: WorkerRuntime<Env>,
): Promise<Response> {
  const { request, env } = door;
  const { target, identity, shardKey } = admitted;
  noteArgs(request, target.procedure.log, args);
  const invocation = {
    path: target.path,
    procedure: target.procedure,
    args,
    identity,
    request,
    transport: "rest",
    shardKey,
    stub: runtime.shard(env, shardKey),
    timeoutMs: runtime.procedureTimeoutMs,
    plan: runtime.recording,
  } as const;
  const { shardGate } = door;
  if (shardGate !== undefined) {
    // Taken: from here the shard decides the gate, and a failure is not the worker's to count.
    door.shardGate = undefined;
    return invokeGatedJson(invocation, shardGate, (json, gateHeaders) =>
      // The caller's gates' headers (an API key's) over the shard's, as when both are decided here.
      restAnswer(json, {
        limitHeaders: mergeLimitHeaders(gateHeaders, takeLimitHeaders(admitted)),
      }),
    );
  }
  // No gate set headers (the usual call): the answer is `restAnswer` itself, no closure per call.
  if (!hasLimitHeaders(admitted)) return invokeJson(invocation, restAnswer);
  return invokeJson(invocation, (json) =>
    restAnswer(json, { limitHeaders: takeLimitHeaders(admitted) }),
  );
}

/** A REST answer: the value's JSON as the body, `null` for a handler that returned nothing. */
function restAnswer(json: string | undefined, init?: JsonResponseInit): Response {
  return jsonTextResponse(json ?? "null", init);
}

/**
 * `/_svc/rest/<namespace>/<function>`: a thin adapter over svc's one
 * admission step (`admission.ts`) and the dispatch RPC uses. A routed path
 * on another method is `405` with `Allow`; then admission (the rate limit
 * before any body is read, an unknown path refused like a refused shard),
 * then the arguments (query string or JSON body) and the call. A refusal
 * before admission is thrown, not returned rejected: this runs on every
 * REST call, and an `async` layer of its own cost a promise and turns.
 *
 * @example
 * ```ts
 * const mount = { path: REST_PREFIX, serve: ({ request, env, url, path }) => handleRest(request, env, url, path, runtime) };
 * ```
 */
export function handleRest<Env>(
  request: Request,
  env: Env,
  url: URL,
  pathname: string,
  runtime: WorkerRuntime<Env>,
): Promise<Response> {
  const route = runtime.restRoutes.get(pathname);
  // Read once (the record takes it from here): each read of `request.method` is a call into the runtime.
  const { method } = request;
  noteCall(request, { entry: "rest", route: route?.path ?? "(unknown)", method });
  if (route !== undefined && !route.methods.includes(method as "GET" | "POST")) {
    throw new SvcError("METHOD_NOT_ALLOWED", `${method} is not allowed here.`, {
      headers: { allow: route.methods.join(", ") },
    });
  }
  const door: Door<Env, RestTarget> = {
    transport: "rest",
    request,
    url,
    env,
    target: route?.path ?? namedPath(pathname),
    resolved: route,
    // The route is its API key scope target (its path and kind): nothing made per call.
    scope: route,
    notFound,
  };
  if (runtime.restRateLimit === undefined)
    return throughDoor(door, runtime, (admitted) => invokeRest(admitted, door, method, runtime));
  let answer: Promise<Response>;
  try {
    answer = throughDoor(door, runtime, (admitted) => invokeRest(admitted, door, method, runtime));
  } catch (error) {
    answer = Promise.reject(error);
  }
  return answer.then(undefined, (error: unknown) => failedBeforeShard(door, error));
}

/**
 * A gated call's failure: one that never reached its shard, whose gate was
 * left to it, is decided now (limits/shard-gate.ts), so it counts and a
 * refused caller gets `429`; any other failure is answered as it is.
 */
function failedBeforeShard(door: Door<unknown, RestTarget>, error: unknown): Promise<never> {
  const { shardGate } = door;
  if (shardGate === undefined) return Promise.reject(error);
  door.shardGate = undefined;
  return decideAfterEarlyFailure(shardGate, error);
}
