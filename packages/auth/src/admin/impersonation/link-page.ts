/**
 * Path of the one-time links on the app's origin; `createWorker` serves it
 * without the admin gate (`AuthAdminSurface.handleLink`).
 *
 * @example
 * ```ts
 * const url = `${origin}${LINK_PATH}${code}`;
 * ```
 */
export const LINK_PATH = "/_svc/admin/auth/link/";

/**
 * Headers of every link page: never stored, never leaking the code through
 * `Referer`, never framed (a framed "Continue" is a click to steal), no
 * script at all, and a form that can only post back to this origin.
 */
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "x-robots-tag": "noindex",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
} as const;

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;background:#f6f7f9;color:#16181d}" +
  "main{max-width:32rem;margin:0 auto;background:#fff;border:1px solid #d5d9e0;border-radius:8px;padding:1.5rem}" +
  "h1{font-size:1.25rem;margin:0 0 1rem}p{margin:0 0 1rem}" +
  "button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:0;background:#1f4fd1;color:#fff;cursor:pointer}" +
  "button:focus-visible{outline:3px solid #16181d;outline-offset:2px}" +
  "@media (prefers-color-scheme:dark){body{background:#111318;color:#e8eaef}main{background:#1a1d24;border-color:#39404d}" +
  "button{background:#8fb0ff;color:#0b0d12}button:focus-visible{outline-color:#e8eaef}}";

/**
 * The confirmation page a link's `GET` shows: who will be signed in, as
 * whom, for how long, and a form whose `POST` uses the link. A `GET` never
 * uses it, so link previews and prefetchers cannot burn it.
 *
 * @example
 * ```ts
 * return confirmPage({ email: "ann@example.com", operator: "alice", durationSeconds: 3600 });
 * ```
 */
export function confirmPage(input: {
  email: string;
  operator: string;
  durationSeconds: number;
}): Response {
  const email = escapeHtml(input.email);
  return page(
    200,
    `Continue as ${email}`,
    `<p>You, operator <strong>${escapeHtml(input.operator)}</strong>, will be signed in to this app as ` +
      `<strong>${email}</strong> for ${durationText(input.durationSeconds)}. This is recorded in the audit trail.</p>` +
      "<p>It replaces any session this browser has on this app: you will be signed out of it here.</p>" +
      `<form method="post"><button type="submit">Continue as ${email}</button></form>`,
  );
}

/**
 * The page of a link that cannot be used (unknown, used, expired), or of a
 * user who can no longer be impersonated: a reason and what to do, never a
 * stack trace.
 *
 * @example
 * ```ts
 * return errorPage(410, "This link was already used or has expired; create a new one from the dashboard.");
 * ```
 */
export function errorPage(status: number, message: string): Response {
  return page(status, "This link cannot be used", `<p>${escapeHtml(message)}</p>`);
}

/**
 * The headers a link page carries, plus `extra`: for the `303` that follows
 * a used link (its `Set-Cookie` and `Location`).
 *
 * @example
 * ```ts
 * new Response(null, { status: 303, headers: linkHeaders({ location: "/" }) });
 * ```
 */
export function linkHeaders(extra: Record<string, string> = {}): Headers {
  const headers = new Headers(PAGE_HEADERS);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return headers;
}

function page(status: number, title: string, body: string): Response {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><title>${title}</title><style>${STYLE}</style></head>` +
    `<body><main><h1>${title}</h1>${body}</main></body></html>`;
  return new Response(html, { status, headers: linkHeaders() });
}

function durationText(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? "1 hour" : `${seconds / 3600} hours`;
  const minutes = Math.round(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
