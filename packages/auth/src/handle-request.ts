import type { BetterAuthOptions } from "better-auth";

/** better-auth's default mount point. */
export const DEFAULT_BASE_PATH = "/api/auth";

/** The part of an auth instance {@link handleAuthRequest} needs. */
export interface AuthRequestHandler {
  handler(request: Request): Promise<Response>;
  /** Read for `basePath`. */
  options: BetterAuthOptions;
}

/**
 * Hands a request under the auth base path (`basePath`, default `/api/auth`)
 * to better-auth and returns its response; any other request gets `null`, so
 * the worker keeps routing. Only `<basePath>/…` matches: `/api/authx`,
 * `/api/auth` without the slash, percent-encoded look-alikes (`/api/%61uth/…`)
 * and paths hiding an encoded slash or backslash (`%2F`, `%5C`) do not, and dot
 * segments are resolved before matching, so `/api/auth/../x` is `/api/x`.
 *
 * @example
 * ```ts
 * async fetch(request, env, ctx) {
 *   await ensureMigrated(auth);
 *   return (await handleAuthRequest(auth, request)) ?? worker.fetch(request, env, ctx);
 * }
 * ```
 */
export async function handleAuthRequest(
  auth: AuthRequestHandler,
  request: Request,
): Promise<Response | null> {
  if (!isAuthPath(new URL(request.url).pathname, auth.options.basePath)) return null;
  return auth.handler(request);
}

/** True when `pathname` (dot segments already resolved by `URL`) lies under `basePath`. */
function isAuthPath(pathname: string, basePath: string = DEFAULT_BASE_PATH): boolean {
  const prefix = `${basePath.replace(/\/+$/, "")}/`;
  if (!pathname.startsWith(prefix)) return false;
  return !/%2f|%5c|\\/i.test(pathname);
}
