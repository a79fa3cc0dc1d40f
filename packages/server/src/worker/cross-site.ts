import { SvcError } from "../errors/svc-error.ts";

/**
 * Refuses a request that carries cookies but was sent by a page on another
 * site (CSRF). Browsers mark such requests with `Sec-Fetch-Site: cross-site`
 * and an `Origin` of the other site; a form or `fetch` from an attacker's page
 * could otherwise call a procedure with the victim's session cookie (a
 * no-argument REST `POST` needs no JSON content type, so no CORS preflight
 * stops it). Non-browser clients send neither header and bearer tokens are
 * not ambient, so both are unaffected.
 */
export function refuseCrossSiteCookies(request: Request, url: URL): void {
  if (!request.headers.has("cookie")) return;
  const site = request.headers.get("sec-fetch-site");
  const origin = request.headers.get("origin");
  const crossSite =
    site === "cross-site" || site === "same-site" || (origin !== null && origin !== url.origin);
  if (crossSite) {
    throw new SvcError(
      "FORBIDDEN",
      "Cross-site requests may not use cookie credentials; send a bearer token instead.",
    );
  }
}
