import { SvcError } from "../errors/svc-error.ts";
import type { DashboardAssets } from "./extensions.ts";

/** Where the dashboard is served. */
export const DASHBOARD_PREFIX = "/_svc/dashboard/";

/**
 * The dashboard's Content-Security-Policy: its own scripts, styles and API
 * only; no inline code, no framing, no third parties.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": DASHBOARD_CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
};

/**
 * Serves the dashboard's static files. They hold no data and no secret, so
 * they are not admin-gated; every call they make to `/_svc/admin/*` is.
 * Unknown files fall back to `index.html` (client-side routes).
 */
export function serveDashboard(request: Request, url: URL, assets: DashboardAssets): Response {
  if (request.method !== "GET" && request.method !== "HEAD") {
    throw new SvcError("METHOD_NOT_ALLOWED", "GET only.", { headers: { allow: "GET, HEAD" } });
  }
  if (url.pathname === DASHBOARD_PREFIX.slice(0, -1)) {
    return new Response(null, { status: 308, headers: { location: DASHBOARD_PREFIX } });
  }
  const name = url.pathname.slice(DASHBOARD_PREFIX.length);
  const isAsset = name !== "" && Object.hasOwn(assets.files, name) && name !== "index.html";
  const file = isAsset ? assets.files[name] : assets.files["index.html"];
  if (file === undefined) throw new SvcError("NOT_FOUND", "Not found.");
  const headers = new Headers(SECURITY_HEADERS);
  headers.set("content-type", file.contentType);
  headers.set("cache-control", isAsset ? "public, max-age=300" : "no-store");
  return new Response(request.method === "HEAD" ? null : file.body, { headers });
}
