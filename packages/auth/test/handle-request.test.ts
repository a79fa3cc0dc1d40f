import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createAuth, ensureMigrated, handleAuthRequest, svcDatabaseAdapter } from "../src/index.ts";
import { TEST_ORIGIN, TEST_SECRET } from "./fixture/constants.ts";

function authAt(basePath?: string) {
  return createAuth({
    secret: TEST_SECRET,
    baseURL: TEST_ORIGIN,
    database: svcDatabaseAdapter(env.DB),
    emailAndPassword: { enabled: true },
    ...(basePath ? { basePath } : {}),
  });
}

const get = (path: string) => new Request(`${TEST_ORIGIN}${path}`);

describe("handleAuthRequest", () => {
  it.each(["/api/auth/ok", "/api/auth/get-session", "/api/auth/../auth/ok"])(
    "hands %s to better-auth",
    async (path) => {
      const auth = authAt();
      await ensureMigrated(auth);
      const response = await handleAuthRequest(auth, get(path));
      expect(response).toBeInstanceOf(Response);
      expect(response?.status).toBe(200);
    },
  );

  it.each([
    "/",
    "/api/auth",
    "/api/authx",
    "/api/authx/ok",
    "/API/auth/ok",
    "/api/%61uth/ok",
    "/api%2Fauth/ok",
    "/api/auth%2Fok",
    "/api/auth/..%2Fok",
    "/api/auth/..%5Cok",
    "/api/auth/../x",
    "/api/auth/%2e%2e/x",
    "/x/api/auth/ok",
  ])("leaves %s to the caller (null)", async (path) => {
    expect(await handleAuthRequest(authAt(), get(path))).toBeNull();
  });

  it("honours a configured basePath and no longer answers the default one", async () => {
    const auth = authAt("/auth/v1");
    await ensureMigrated(auth);
    expect((await handleAuthRequest(auth, get("/auth/v1/ok")))?.status).toBe(200);
    expect(await handleAuthRequest(auth, get("/api/auth/ok"))).toBeNull();
    expect(await handleAuthRequest(auth, get("/auth/v1x/ok"))).toBeNull();
  });
});

describe("handleAuthRequest without a rate limit", () => {
  it("says once per auth instance, plainly, that auth endpoints are unlimited", async () => {
    const auth = authAt();
    await ensureMigrated(auth);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      await handleAuthRequest(auth, get("/api/auth/ok"));
      await handleAuthRequest(auth, get("/api/auth/ok"));
      const said = warn.mock.calls.filter(([message]) => String(message).includes("UNLIMITED"));
      expect(said).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });
});
