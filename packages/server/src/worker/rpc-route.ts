import { SvcError } from "../errors/svc-error.ts";
import { noteArgs, noteCall } from "../observability/call-scope.ts";
import { callerOf } from "../observability/caller.ts";
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
  const procedure = Object.hasOwn(runtime.functions, path) ? runtime.functions[path] : undefined;
  if (procedure === undefined || procedure.visibility !== "public")
    throw new SvcError("NOT_FOUND", "No such procedure.");
  noteCall({ entry: procedure.kind === "stream" ? "stream" : "rpc", route: path, shardKey });
  noteArgs(procedure.log, body.args);

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
      };
      if (procedure.kind === "stream") return invokeStream(invocation);
      return jsonResponse({ value: await invokeProcedure(invocation) });
    },
  );
}
