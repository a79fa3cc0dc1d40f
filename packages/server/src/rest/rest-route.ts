import { SvcError } from "../errors/svc-error.ts";
import { readJsonArgs } from "../http/body.ts";
import { argsFromQuery } from "../http/query-args.ts";
import { jsonResponse } from "../http/responses.ts";
import { SHARD_KEY_PARAM } from "../model/shard-key.ts";
import { noteArgs, noteCall } from "../observability/call-scope.ts";
import type { AnyProcedure } from "../procedures/procedure.ts";
import { REST_PREFIX } from "../procedures/rest-routes.ts";
import { takeLimitHeaders, throughDoor } from "../worker/admission.ts";
import { invokeProcedure } from "../worker/invoke.ts";
import type { WorkerRuntime } from "../worker/runtime.ts";

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
 * `/_svc/rest/<namespace>/<function>`: a thin adapter over svc's one
 * admission step (`admission.ts`) and the dispatch RPC uses. A routed path
 * on another method is `405` with `Allow`; then admission (the rate limit
 * before any body is read, an unknown path refused like a refused shard),
 * then the arguments (query string or JSON body) and the call.
 */
export async function handleRest<Env>(
  request: Request,
  env: Env,
  url: URL,
  runtime: WorkerRuntime<Env>,
): Promise<Response> {
  const route = runtime.restRoutes.get(url.pathname);
  noteCall(request, { entry: "rest", route: route?.path ?? "(unknown)" });
  if (route !== undefined && !route.methods.includes(request.method as "GET" | "POST")) {
    throw new SvcError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here.`, {
      headers: { allow: route.methods.join(", ") },
    });
  }
  const target = route?.path ?? namedPath(url.pathname);
  const scope = route && { path: route.path, kind: route.procedure.kind };
  const door = { transport: "rest", request, url, env, target, resolved: route, scope } as const;
  return throughDoor({ ...door, notFound }, runtime, async (admitted) => {
    const { target, identity, shardKey } = admitted;
    const args = await argsOf(request, url, runtime.maxBodyBytes, target.procedure);
    noteArgs(request, target.procedure.log, args);
    const value = await invokeProcedure({
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
    });
    return jsonResponse(value, { limitHeaders: takeLimitHeaders(admitted) });
  });
}
