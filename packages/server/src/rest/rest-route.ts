import { problemResponse } from "../errors/problem.ts";
import { SvcError } from "../errors/svc-error.ts";
import { noteArgs, noteCall } from "../observability/call-scope.ts";
import { callerOf } from "../observability/caller.ts";
import type { AnyProcedure } from "../procedures/procedure.ts";
import { withDispatchSpan } from "../telemetry.ts";
import { readJsonArgs } from "../worker/body.ts";
import { refuseCrossSiteCookies } from "../worker/cross-site.ts";
import { type Invocation, invokeProcedure } from "../worker/invoke.ts";
import { jsonResponse } from "../worker/responses.ts";
import type { WorkerRuntime } from "../worker/runtime.ts";
import { SHARD_KEY_PARAM, shardKeyOf } from "../worker/shard-key.ts";
import { argsFromQuery } from "./query-args.ts";

/**
 * The one 404 of the REST surface. Unknown paths, unexposed, internal and
 * stream procedures all get exactly these bytes, so probing cannot tell them
 * apart.
 */
export function restNotFound(): Response {
  return problemResponse(new SvcError("NOT_FOUND", "Not found."));
}

async function argsOf(
  request: Request,
  url: URL,
  maxBodyBytes: number,
  procedure: AnyProcedure,
): Promise<unknown> {
  if (request.method === "GET") return argsFromQuery(url.searchParams, procedure.args.shape);
  const stray = [...url.searchParams.keys()].find((key) => key !== SHARD_KEY_PARAM);
  if (stray !== undefined) {
    throw new SvcError(
      "BAD_REQUEST",
      `POST arguments go in the JSON body, not the query string (${JSON.stringify(stray)}).`,
    );
  }
  return readJsonArgs(
    request,
    maxBodyBytes,
    "REST POST bodies must have content-type: application/json.",
  );
}

/**
 * `/_svc/rest/<namespace>/<function>`: a transport adapter over the same
 * dispatch as RPC. Order: route (uniform 404), method (405 + Allow), rate
 * limit (before any body is read), shard key, arguments, identity, dispatch.
 */
export async function handleRest<Env>(
  request: Request,
  env: Env,
  url: URL,
  runtime: WorkerRuntime<Env>,
): Promise<Response> {
  const route = runtime.restRoutes.get(url.pathname);
  noteCall({ entry: "rest", route: route?.path ?? "(unknown)" });
  if (route === undefined) return restNotFound();
  if (!route.methods.includes(request.method as "GET" | "POST")) {
    throw new SvcError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here.`, {
      headers: { allow: route.methods.join(", ") },
    });
  }
  return withDispatchSpan(
    { urlPath: url.pathname, route: route.path, method: request.method, transport: "rest" },
    async () => {
      const limitHeaders = runtime.restRateLimit
        ? await runtime.restRateLimit.check(request, route.path)
        : {};
      try {
        refuseCrossSiteCookies(request, url);
        const shardKey = shardKeyOf(request, url);
        const identity = await runtime.resolveIdentity(request, env);
        noteCall({ shardKey, caller: callerOf(identity) });
        const access = { identity, shardKey, path: route.path, transport: "rest" as const };
        // A refused key answers like an unknown route: same body, no rate-limit headers.
        if (!(await runtime.shardAccess({ ...access, request, env }))) return restNotFound();
        const args = await argsOf(request, url, runtime.maxBodyBytes, route.procedure);
        noteArgs(route.procedure.log, args);
        const invocation: Invocation = {
          path: route.path,
          procedure: route.procedure,
          args,
          identity,
          transport: "rest",
          shardKey,
          stub: runtime.shard(env, shardKey),
          timeoutMs: runtime.procedureTimeoutMs,
        };
        return jsonResponse(await invokeProcedure(invocation), { headers: limitHeaders });
      } catch (error) {
        return problemResponse(error, limitHeaders);
      }
    },
  );
}
