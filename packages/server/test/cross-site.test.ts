import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const call = (path: string, headers: Record<string, string>, body?: string) =>
  exports.default.fetch(`http://svc.test${path}`, {
    method: "POST",
    headers: { ...(body ? { "content-type": "application/json" } : {}), ...headers },
    ...(body ? { body } : {}),
  });

describe("cookie credentials from another site are refused (CSRF)", () => {
  it.each([
    [
      "REST, no-arg POST from a cross-site form",
      "/_svc/rest/rest/noArgs",
      { cookie: "s=1", "sec-fetch-site": "cross-site" },
      undefined,
    ],
    [
      "REST with a foreign Origin",
      "/_svc/rest/rest/noArgs",
      { cookie: "s=1", origin: "https://evil.example" },
      undefined,
    ],
    [
      "RPC from a same-site subdomain",
      "/_svc/rpc",
      { cookie: "s=1", "sec-fetch-site": "same-site" },
      '{"path":"notes:all"}',
    ],
  ])("%s → 403", async (_name, path, headers, body) => {
    const response = await call(path, headers, body);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "FORBIDDEN" });
  });

  it.each([
    [
      "same-origin page with cookies",
      { cookie: "s=1", "sec-fetch-site": "same-origin", origin: "http://svc.test" },
    ],
    [
      "cross-site call without cookies (bearer or anonymous)",
      { "sec-fetch-site": "cross-site", authorization: "Bearer x" },
    ],
    ["non-browser client with cookies", { cookie: "s=1" }],
  ])("%s → allowed", async (_name, headers) => {
    expect((await call("/_svc/rest/rest/noArgs", headers)).status).toBe(200);
  });
});
