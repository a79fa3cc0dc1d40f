import { SvcError } from "../errors/svc-error.ts";
import { noteArgs, noteCall } from "../observability/call-scope.ts";
import { callerOf } from "../observability/caller.ts";
import { clientOfMutation, MUTATION_HEADER } from "../subscriptions/protocol.ts";
import { withDispatchSpan } from "../telemetry.ts";
import { isJsonContentType, readJsonBody } from "./body.ts";
import { refuseCrossSiteCookies } from "./cross-site.ts";
import { type Invocation, invokeProcedure, invokeStream } from "./invoke.ts";
import { jsonResponse } from "./responses.ts";
import type { WorkerRuntime } from "./runtime.ts";
import { shardKeyOf } from "./shard-key.ts";

/** Path of the RPC endpoint. */
export const RPC_PATH = "/_svc/rpc";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `POST /_svc/rpc` with `{ path, args }` → `{ value }`, or an NDJSON stream for
 * stream procedures. Internal and unknown paths are the same `NOT_FOUND`.
 * With `rpcRateLimit`, the gate runs once the body names the path, before
 * the path is looked up, the identity resolved or the shard touched; its
 * headers go on successful answers and on its own 429 only.
 */
export async function handleRpc<Env>(
  request: Request,
  env: Env,
  url: URL,
  runtime: WorkerRuntime<Env>,
): Promise<Response> {
  noteCall({ entry: "rpc", route: "(unknown)" });
  if (request.method !== "POST") {
    throw new SvcError("METHOD_NOT_ALLOWED", "The RPC endpoint accepts POST only.", {
      headers: { allow: "POST" },
    });
  }
  if (!isJsonContentType(request.headers.get("content-type"))) {
    throw new SvcError("BAD_REQUEST", "RPC requests must have content-type: application/json.");
  }
  refuseCrossSiteCookies(request, url);
  const shardKey = shardKeyOf(request, url);
  const body = await readJsonBody(request, runtime.maxBodyBytes);
  if (!isPlainObject(body) || typeof body.path !== "string") {
    throw new SvcError(
      "BAD_REQUEST",
      'The RPC body must be a JSON object {"path": string, "args"?: object}.',
    );
  }
  const unknownKeys = Object.keys(body).filter((key) => key !== "path" && key !== "args");
  if (unknownKeys.length > 0)
    throw new SvcError("BAD_REQUEST", `Unknown RPC body field: ${unknownKeys[0]}.`);
  if (body.args !== undefined && body.args !== null && !isPlainObject(body.args)) {
    throw new SvcError("BAD_REQUEST", "RPC args must be a JSON object.");
  }
  const path = body.path;
  // Opt-in, before the path is even looked up: unknown paths are counted too, and a refused
  // call costs no identity lookup and no shard.
  const limitHeaders = runtime.rpcRateLimit ? await runtime.rpcRateLimit.check(request, path) : {};
  const procedure = Object.hasOwn(runtime.functions, path) ? runtime.functions[path] : undefined;
  if (procedure === undefined || procedure.visibility !== "public")
    throw new SvcError("NOT_FOUND", "No such procedure.");
  noteCall({ entry: procedure.kind === "stream" ? "stream" : "rpc", route: path, shardKey });
  noteArgs(procedure.log, body.args);
  const mutationId = request.headers.get(MUTATION_HEADER) ?? undefined;
  if (mutationId !== undefined && clientOfMutation(mutationId) === undefined) {
    throw new SvcError("BAD_REQUEST", `${MUTATION_HEADER} is <clientId>:<sequence number>.`);
  }

  // Errors carry no RateLimit headers: a refused shard key must answer byte for byte what an
  // unknown procedure answers, and the remaining count would tell two such answers apart.
  return withDispatchSpan(
    { urlPath: url.pathname, route: path, method: "POST", transport: "rpc" },
    async () => {
      const identity = await runtime.resolveIdentity(request, env);
      noteCall({ caller: callerOf(identity) });
      const access = { identity, shardKey, path, transport: "rpc" as const, request, env };
      if (!(await runtime.shardAccess(access)))
        throw new SvcError("NOT_FOUND", "No such procedure.");
      const invocation: Invocation = {
        path,
        procedure,
        args: body.args,
        identity,
        transport: "rpc",
        shardKey,
        stub: runtime.shard(env, shardKey),
        timeoutMs: runtime.procedureTimeoutMs,
        ...(mutationId !== undefined && procedure.kind === "mutation" ? { mutationId } : {}),
      };
      if (procedure.kind === "stream")
        return withHeaders(await invokeStream(invocation), limitHeaders);
      return jsonResponse({ value: await invokeProcedure(invocation) }, { headers: limitHeaders });
    },
  );
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
