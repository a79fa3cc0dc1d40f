import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { ADMIN_AUTH_BASE, ADMIN_TOKENS } from "./fixture/admin.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";
import { cookieFrom } from "./http.ts";

/** Options of {@link adminFetch}: a JSON body, and the token (`null`: none; default alice's). */
export interface AdminRequest {
  body?: unknown;
  token?: string | null;
}

/** Calls `/_svc/admin/auth/<path>` on the test worker, through `createWorker`'s admin gate. */
export function adminFetch(
  method: string,
  path: string,
  request: AdminRequest = {},
): Promise<Response> {
  const headers = new Headers();
  const token = request.token === undefined ? ADMIN_TOKENS.alice : request.token;
  if (token !== null) headers.set("authorization", `Bearer ${token}`);
  if (request.body !== undefined) headers.set("content-type", "application/json");
  return exports.default.fetch(`${TEST_ORIGIN}/_svc/admin/auth/${path}`, {
    method,
    headers,
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
}

/** {@link adminFetch}, expecting `status`, and returning the JSON body. */
export async function adminJson<T = Record<string, unknown>>(
  method: string,
  path: string,
  status: number,
  request: AdminRequest = {},
): Promise<T> {
  const response = await adminFetch(method, path, request);
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).toBe(status);
  return JSON.parse(text) as T;
}

/** POSTs JSON to the admin test auth's own better-auth endpoints. */
export function adminAuthPost(endpoint: string, body: unknown, headers: HeadersInit = {}) {
  const all = new Headers(headers);
  all.set("origin", TEST_ORIGIN);
  all.set("content-type", "application/json");
  return exports.default.fetch(`${TEST_ORIGIN}${ADMIN_AUTH_BASE}${endpoint}`, {
    method: "POST",
    headers: all,
    body: JSON.stringify(body),
  });
}

/** Signs up through better-auth itself; returns the user id. */
export async function signUp(email: string, password: string, name = "Test User"): Promise<string> {
  const response = await adminAuthPost("/sign-up/email", { email, password, name });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { user: { id: string } }).user.id;
}

/** Signs in through better-auth itself: the status, and the bearer token and cookie on success. */
export async function signIn(
  email: string,
  password: string,
): Promise<{ status: number; token: string | null; cookie: string }> {
  const response = await adminAuthPost("/sign-in/email", { email, password });
  return {
    status: response.status,
    token: response.headers.get("set-auth-token"),
    cookie: cookieFrom(response),
  };
}
