import { problemResponse, requestUrl } from "@svc/server/internal";
import type { BetterAuthOptions } from "better-auth";
import { accountOf } from "./limits/accounts.ts";
import type { AuthRateLimit } from "./limits/rate-limit.ts";
import { checkAuthBody, DEFAULT_AUTH_MAX_BODY_BYTES } from "./limits/request-guard.ts";
import { type TwoFactorLookup, twoFactorAccount } from "./limits/two-factor-account.ts";
import { expireRevocationViews } from "./revocation/revocation-feed.ts";

/** better-auth's default mount point. */
export const DEFAULT_BASE_PATH = "/api/auth";

/** The part of an auth instance {@link handleAuthRequest} needs. */
export interface AuthRequestHandler {
  handler(request: Request): Promise<Response>;
  /** Read for `basePath`. */
  options: BetterAuthOptions;
  /**
   * better-auth's context, where the two-factor limits find the user behind
   * a challenge. Every better-auth instance has it; without it, two-factor
   * requests are limited per IP only.
   */
  $context?: Promise<TwoFactorLookup>;
}

/** Options of {@link handleAuthRequest}. */
export interface HandleAuthRequestOptions {
  /**
   * Limits of the sensitive endpoints, from `createAuthRateLimit`. Without
   * it, auth endpoints are unlimited (said once per auth instance on the console).
   */
  rateLimit?: AuthRateLimit;
  /** Largest accepted body in bytes (413 above it). @default 65536 */
  maxBodyBytes?: number;
}

/** Auth instances already warned about having no limits: the warning is said once each. */
const warnedUnlimited = new WeakSet<AuthRequestHandler>();

/**
 * Hands a request under the auth base path (`basePath`, default `/api/auth`)
 * to better-auth and returns its response; any other request gets `null`, so
 * the worker keeps routing. Only `<basePath>/…` matches: `/api/authx`,
 * `/api/auth` without the slash, percent-encoded look-alikes (`/api/%61uth/…`)
 * and paths hiding an encoded slash or backslash (`%2F`, `%5C`) do not, and dot
 * segments are resolved before matching, so `/api/auth/../x` is `/api/x`.
 *
 * Before better-auth sees it, the request meets svc's guards, answered as
 * problem details: a body over `maxBodyBytes` is `413` (never read whole),
 * invalid UTF-8, an ambiguous content type, JSON that is not an object or a
 * missing body where the endpoint needs one `400`, over-long user fields
 * (`name`, `email`, …) `400`, and with `rateLimit` the sensitive endpoints
 * `429` with `Retry-After`. The body is read once, by the reader that parses
 * it exactly as better-auth will (JSON, form or multipart), so no encoding
 * escapes a cap or a limit.
 *
 * @example
 * ```ts
 * const authLimits = createAuthRateLimit({ store: "RATE_LIMITER" });
 * async fetch(request, env, ctx) {
 *   await ensureMigrated(auth);
 *   return (await handleAuthRequest(auth, request, { rateLimit: authLimits })) ?? worker.fetch(request, env, ctx);
 * }
 * ```
 */
export async function handleAuthRequest(
  auth: AuthRequestHandler,
  request: Request,
  options: HandleAuthRequestOptions = {},
): Promise<Response | null> {
  const basePath = basePathOf(auth);
  const pathname = requestUrl(request).pathname;
  if (!isAuthPath(pathname, basePath)) return null;
  if (options.rateLimit === undefined && !warnedUnlimited.has(auth)) {
    warnedUnlimited.add(auth);
    console.warn(
      "svc/auth: auth endpoints are UNLIMITED (no brute-force or flood limit on sign-in, sign-up, " +
        "password reset). Pass handleAuthRequest(auth, request, { rateLimit: createAuthRateLimit(...) }).",
    );
  }
  let forwarded = request;
  let limitHeaders: Record<string, string> = {};
  try {
    const path = pathname.slice(basePath.length);
    const { bytes, fields } = await checkAuthBody(
      request,
      path,
      options.maxBodyBytes ?? DEFAULT_AUTH_MAX_BODY_BYTES,
    );
    if (options.rateLimit) {
      const context = auth.$context;
      const challenged = async () =>
        context === undefined ? undefined : twoFactorAccount(await context, request);
      limitHeaders = await options.rateLimit.check(path, request, () =>
        accountOf(path, fields, challenged),
      );
    }
    // A DELETE with an empty body is one without: better-call refused it (415 without a content
    // type, 400 as empty JSON), so a plain `fetch(url, { method: "DELETE" })` could not revoke.
    if (request.body !== null)
      forwarded =
        request.method === "DELETE" && bytes.byteLength === 0
          ? new Request(request.url, { method: "DELETE", headers: withoutBodyHeaders(request) })
          : new Request(request, { body: bytes });
  } catch (error) {
    return problemResponse(error, { request, headers: limitHeaders });
  }
  const response = await auth.handler(forwarded);
  // A write may have revoked a session this isolate cached: its next request checks first.
  if (request.method !== "GET" && request.method !== "HEAD")
    expireRevocationViews(auth.options.database);
  if (Object.keys(limitHeaders).length === 0) return response;
  const withHeaders = new Response(response.body, response);
  for (const [name, value] of Object.entries(limitHeaders)) withHeaders.headers.set(name, value);
  return withHeaders;
}

/** The request's headers less those that describe a body it no longer has. */
function withoutBodyHeaders(request: Request): Headers {
  const headers = new Headers(request.headers);
  for (const name of ["content-type", "content-length", "transfer-encoding"]) headers.delete(name);
  return headers;
}

const SLASH = 0x2f;

/** The configured base path without trailing slashes (no regex on the common case of none). */
function basePathOf(auth: AuthRequestHandler): string {
  const configured = auth.options.basePath ?? DEFAULT_BASE_PATH;
  return configured.endsWith("/") ? configured.replace(/\/+$/, "") : configured;
}

/**
 * True when `pathname` (dot segments already resolved by `URL`) lies under
 * `basePath` (trailing slashes removed). This runs before every request of
 * an app that mounts auth in front of its worker: two string checks, no
 * string built, for the paths that are not auth's.
 */
function isAuthPath(pathname: string, basePath: string): boolean {
  if (!pathname.startsWith(basePath) || pathname.charCodeAt(basePath.length) !== SLASH)
    return false;
  return !/%2f|%5c|\\/i.test(pathname);
}
