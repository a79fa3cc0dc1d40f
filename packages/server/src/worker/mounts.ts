import { SvcError } from "../errors/svc-error.ts";
import { refuseHugeHeaders } from "./header-size.ts";

/** One request to a {@link Mount}. */
export interface MountCall<Env> {
  request: Request;
  env: Env;
  url: URL;
  /** `url.pathname`, read once per request: each read of it is a call into the runtime and a new string. */
  path: string;
  /** The path after a prefix mount's prefix (`users/u1/ban`); `""` for an exact mount. */
  rest: string;
  /** The name of the admin token presented, for a gated mount; `""` otherwise. */
  operator: string;
  /** The request's `ExecutionContext`: what a mount starts after its answer (a record's write) runs under. */
  lifetime: ExecutionContext;
}

/**
 * One entry of the worker's route table under `/_svc/`: where it is mounted,
 * whether the admin token is checked first, and what answers.
 *
 * @example
 * ```ts
 * const openApi: Mount<Env> = { path: "/_svc/admin/openapi", adminGate: true, serve: () => jsonResponse(doc) };
 * ```
 */
export interface Mount<Env> {
  /** An exact path (`/_svc/rpc`), or a prefix ending in `/` (`/_svc/rest/`) for everything under it. */
  path: string;
  /** The admin token is checked before `serve` runs; its name becomes `operator`. */
  adminGate?: boolean;
  /** Answers carry `cache-control: no-store` (admin answers hold personal data and, once, a live token). */
  noStore?: boolean;
  /**
   * Runs once the mount matches, before the admin gate: says what the call
   * is for its call record (`noteCall`), so a refused token is recorded too.
   */
  claim?(request: Request, path: string): void;
  serve(call: MountCall<Env>): Response | Promise<Response>;
}

function noStore(response: Response): Response {
  if (response.headers.get("cache-control") === "no-store") return response;
  const copy = new Response(response.body, response);
  copy.headers.set("cache-control", "no-store");
  return copy;
}

/** The first mount, in table order, whose path matches: a loop, not `find`, whose callback was a closure per request. */
function mountAt<Env>(mounts: readonly Mount<Env>[], path: string): Mount<Env> | undefined {
  for (const mount of mounts) {
    if (mount.path.endsWith("/") ? path.startsWith(mount.path) : path === mount.path) return mount;
  }
  return undefined;
}

/** A gated or `noStore` mount: the admin token first, `cache-control: no-store` on the answer. */
async function serveGuarded<Env>(
  mount: Mount<Env>,
  adminGate: (request: Request) => Promise<string>,
  call: MountCall<Env>,
): Promise<Response> {
  if (mount.adminGate === true) call.operator = await adminGate(call.request);
  const response = await mount.serve(call);
  return mount.noStore === true ? noStore(response) : response;
}

/**
 * Serves `/_svc/*` from a route table: the first mount (in table order) whose
 * path matches answers, after the header-size cap and, for gated mounts, the
 * admin token; a path no mount matches is `NOT_FOUND`. Order is the table's
 * contract: a specific mount goes before a prefix that covers it. Refusals
 * before a mount serves are thrown, not returned as rejected promises, and
 * an ungated mount's answer is passed on as it comes (no `async` layer of
 * its own on every call): the caller awaits it inside its `try`.
 *
 * @example
 * ```ts
 * const route = serveMounts(mounts, createAdminGate(adminToken), 64 * 1024);
 * const url = new URL(request.url);
 * const response = await route(request, env, url, ctx, url.pathname);
 * ```
 */
export function serveMounts<Env>(
  mounts: readonly Mount<Env>[],
  adminGate: (request: Request) => Promise<string>,
  maxHeaderBytes: number,
): (
  request: Request,
  env: Env,
  url: URL,
  lifetime: ExecutionContext,
  path: string,
) => Response | Promise<Response> {
  return (request, env, url, lifetime, path) => {
    refuseHugeHeaders(request, maxHeaderBytes);
    const mount = mountAt(mounts, path);
    if (mount === undefined) throw new SvcError("NOT_FOUND", "Not found.");
    mount.claim?.(request, path);
    const rest = mount.path.endsWith("/") ? path.slice(mount.path.length) : "";
    const call: MountCall<Env> = { request, env, url, path, rest, operator: "", lifetime };
    if (mount.adminGate === true || mount.noStore === true)
      return serveGuarded(mount, adminGate, call);
    return mount.serve(call);
  };
}
