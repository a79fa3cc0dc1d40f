import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { createWorker } from "@svc/server";
import { expect } from "vitest";
import { type AuthRequestHandler, ensureMigrated, handleAuthRequest } from "../src/index.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";

/**
 * The specification's wiring for a test's own auth and worker, called in
 * process: migrate, the auth's routes, then the svc worker. Answers a
 * `send(path, init)` that calls it like a browser on {@link TEST_ORIGIN}
 * (an `origin` header, and a JSON content type with a body).
 *
 * @example
 * ```ts
 * const send = inProcessApp(auth, createWorker({ ... }));
 * await send("/api/auth/api-keys", { method: "POST", body: JSON.stringify({ name, scopes }) });
 * ```
 */
export function inProcessApp(
  auth: AuthRequestHandler & Parameters<typeof ensureMigrated>[0],
  svc: ReturnType<typeof createWorker>,
): (path: string, init?: RequestInit) => Promise<Response> {
  return async (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has("origin")) headers.set("origin", TEST_ORIGIN);
    if (init.body !== undefined) headers.set("content-type", "application/json");
    const request = new Request(`${TEST_ORIGIN}${path}`, { ...init, headers });
    await ensureMigrated(auth);
    return (
      (await handleAuthRequest(auth, request)) ?? svc.fetch(request, env, createExecutionContext())
    );
  };
}

/**
 * The admin API of an app from {@link inProcessApp}, called with the admin
 * `token`: answers the parsed body of a 2xx answer, and fails the test on
 * any other status, naming the route and what it answered.
 *
 * @example
 * ```ts
 * const adminJson = adminJsonOf(send, TOKEN);
 * const { token } = await adminJson<{ token: string }>("POST", `users/${id}/impersonate`, { reason: "support" });
 * ```
 */
export function adminJsonOf(
  send: (path: string, init?: RequestInit) => Promise<Response>,
  token: string,
): <T>(method: string, path: string, body?: unknown) => Promise<T> {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await send(`/_svc/admin/auth/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300);
    return JSON.parse(text) as T;
  };
}
