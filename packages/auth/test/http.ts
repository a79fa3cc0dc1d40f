import { exports } from "cloudflare:workers";
import { TEST_ORIGIN } from "./fixture/constants.ts";

/** Calls the test worker like a browser on {@link TEST_ORIGIN} would. */
export function call(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has("origin")) headers.set("origin", TEST_ORIGIN);
  if (init.body !== undefined && !headers.has("content-type")) {
    headers.set("content-type", "application/json");
  }
  return exports.default.fetch(`${TEST_ORIGIN}${path}`, { ...init, headers });
}

/** POSTs JSON to a better-auth endpoint under `/api/auth`. */
export function authPost(
  endpoint: string,
  body: unknown,
  headers: HeadersInit = {},
): Promise<Response> {
  return call(`/api/auth${endpoint}`, { method: "POST", body: JSON.stringify(body), headers });
}

/** The `Cookie` header that replays a response's `Set-Cookie`s. */
export function cookieFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** Calls a procedure over `POST /_svc/rpc` and returns the status and body. */
export async function rpc(
  path: string,
  args: unknown,
  headers: HeadersInit = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await call("/_svc/rpc", {
    method: "POST",
    body: JSON.stringify({ path, args }),
    headers,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A unique email per call, so tests sharing the DB never collide. */
export function freshEmail(label: string): string {
  return `${label}-${crypto.randomUUID()}@svc.test`;
}
