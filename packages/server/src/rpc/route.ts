import { SvcError } from "../errors/svc-error.ts";
import { isJsonContentType, readJsonBody } from "../http/body.ts";
import { jsonTextResponse } from "../http/responses.ts";
import { noteArgs, noteCall } from "../observability/call-scope.ts";
import type { AnyProcedure } from "../procedures/procedure.ts";
import { clientOfMutation, MUTATION_HEADER } from "../subscriptions/protocol.ts";
import { type Door, takeLimitHeaders, throughDoor } from "../worker/admission.ts";
import { type Invocation, invokeJson, invokeStream } from "../worker/invoke.ts";
import type { WorkerRuntime } from "../worker/runtime.ts";

/** Path of the RPC endpoint. */
export const RPC_PATH = "/_svc/rpc";

const noSuchProcedure = () => new SvcError("NOT_FOUND", "No such procedure.");

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The body `{ path, args }`, or `BAD_REQUEST` naming what is wrong with it. */
function readCall(
  request: Request,
  maxBodyBytes: number,
): Promise<{ path: string; args: unknown }> {
  return readJsonBody(request, maxBodyBytes).then(callOfBody);
}

/** A JSON body as the call it names; anything but `{ path, args? }` is `BAD_REQUEST`. */
function callOfBody(body: unknown): { path: string; args: unknown } {
  if (!isPlainObject(body) || typeof body.path !== "string") {
    throw new SvcError(
      "BAD_REQUEST",
      'The RPC body must be a JSON object {"path": string, "args"?: object}.',
    );
  }
  for (const key in body) {
    if (key !== "path" && key !== "args" && Object.hasOwn(body, key))
      throw new SvcError("BAD_REQUEST", `Unknown RPC body field: ${key}.`);
  }
  if (body.args !== undefined && body.args !== null && !isPlainObject(body.args)) {
    throw new SvcError("BAD_REQUEST", "RPC args must be a JSON object.");
  }
  return { path: body.path, args: body.args };
}

/**
 * `POST /_svc/rpc` with `{ path, args }` → `{ value }`, or an NDJSON stream for
 * stream procedures: a thin adapter over svc's one admission step
 * (`admission.ts`). The body names the procedure, so it is read first; the
 * `rpcRateLimit` gate then counts the call whatever it names, and internal
 * and unknown paths are the same `NOT_FOUND` as a refused shard. A refusal
 * before the body is read is thrown, not returned rejected, and no step has
 * an `async` frame of its own: this runs on every call of svc's client.
 *
 * @example
 * ```ts
 * const mount = { path: RPC_PATH, serve: ({ request, env, url }) => handleRpc(request, env, url, runtime) };
 * ```
 */
export function handleRpc<Env>(
  request: Request,
  env: Env,
  url: URL,
  runtime: WorkerRuntime<Env>,
): Promise<Response> {
  // Read once (the record takes it from here): each read of `request.method` is a call into the runtime.
  const { method } = request;
  noteCall(request, { entry: "rpc", route: "(unknown)", method });
  if (method !== "POST") {
    throw new SvcError("METHOD_NOT_ALLOWED", "The RPC endpoint accepts POST only.", {
      headers: { allow: "POST" },
    });
  }
  if (!isJsonContentType(request.headers.get("content-type"))) {
    throw new SvcError("BAD_REQUEST", "RPC requests must have content-type: application/json.");
  }
  return readCall(request, runtime.maxBodyBytes).then((call) =>
    dispatchRpc(request, env, url, runtime, call),
  );
}

/** The call the body named, through admission to its shard: `{ value }` or the stream's body. */
function dispatchRpc<Env>(
  request: Request,
  env: Env,
  url: URL,
  runtime: WorkerRuntime<Env>,
  { path, args }: { path: string; args: unknown },
): Promise<Response> {
  const found = Object.hasOwn(runtime.functions, path) ? runtime.functions[path] : undefined;
  const resolved: AnyProcedure | undefined = found?.visibility === "public" ? found : undefined;
  if (resolved !== undefined) {
    noteCall(request, { entry: resolved.kind === "stream" ? "stream" : "rpc", route: path });
    noteArgs(request, resolved.log, args);
  }
  const mutationId = request.headers.get(MUTATION_HEADER) ?? undefined;
  if (mutationId !== undefined && clientOfMutation(mutationId) === undefined) {
    throw new SvcError("BAD_REQUEST", `${MUTATION_HEADER} is <clientId>:<sequence number>.`);
  }
  const door: Door<Env, AnyProcedure> = {
    transport: "rpc",
    request,
    url,
    env,
    target: path,
    resolved,
    scope: resolved && { path, kind: resolved.kind },
    notFound: noSuchProcedure,
  };
  return throughDoor(door, runtime, (admitted) => {
    const invocation: Invocation = {
      path,
      procedure: admitted.target,
      args,
      identity: admitted.identity,
      request,
      transport: "rpc",
      shardKey: admitted.shardKey,
      stub: runtime.shard(env, admitted.shardKey),
      timeoutMs: runtime.procedureTimeoutMs,
      plan: runtime.recording,
    };
    if (mutationId !== undefined && admitted.target.kind === "mutation")
      invocation.mutationId = mutationId;
    if (admitted.target.kind === "stream") return invokeStream(invocation);
    // `{ value }` around the shard's text; a handler that returned nothing answers `null`
    // (`{}` before 2026-12-05, which @svc/client refused as "answered without a value").
    return invokeJson(invocation, (json) =>
      jsonTextResponse(`{"value":${json ?? "null"}}`, {
        limitHeaders: takeLimitHeaders(admitted),
      }),
    );
  });
}
