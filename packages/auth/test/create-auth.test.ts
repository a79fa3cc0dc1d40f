import { env } from "cloudflare:workers";
import type { BetterAuthOptions } from "better-auth";
import { describe, expect, it } from "vitest";
import { createAuth, SvcAuthError, svcDatabaseAdapter } from "../src/index.ts";
import { TEST_SECRET } from "./fixture/constants.ts";

describe("createAuth", () => {
  it.each([undefined, "", "   "])("fails at once for secret %j, naming AUTH_SECRET", (secret) => {
    const attempt = () => createAuth({ secret: secret as string });
    expect(attempt).toThrow(SvcAuthError);
    expect(attempt).toThrow(/`secret`.*AUTH_SECRET.*openssl rand -base64 32/s);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ code: "AUTH_SECRET_MISSING" });
    }
  });

  it("passes every other option through to better-auth unchanged", async () => {
    const auth = createAuth({
      secret: TEST_SECRET,
      basePath: "/auth",
      appName: "svc test",
      emailAndPassword: { enabled: true, minPasswordLength: 12 },
    });
    const context = await auth.$context;
    expect(context.options).toMatchObject({
      basePath: "/auth",
      appName: "svc test",
      emailAndPassword: { enabled: true, minPasswordLength: 12 },
    });
    expect(context.secret).toBe(TEST_SECRET);
  });

  it("defaults to joined session reads and no schema check at load, each overridable", async () => {
    const defaults = await createAuth({ secret: TEST_SECRET }).$context;
    expect((defaults.options as BetterAuthOptions).advanced?.database).toMatchObject({
      joins: true,
      validateSchema: false,
    });
    const chosen = await createAuth({
      secret: TEST_SECRET,
      advanced: { cookiePrefix: "app", database: { joins: false, validateSchema: true } },
    }).$context;
    expect(chosen.options.advanced).toMatchObject({
      cookiePrefix: "app",
      database: { joins: false, validateSchema: true },
    });
  });
});

describe("svcDatabaseAdapter", () => {
  it("returns the D1 binding better-auth drives", () => {
    expect(svcDatabaseAdapter(env.DB)).toBe(env.DB);
  });

  it("refuses a missing binding with directions", () => {
    const missing = (env as unknown as Record<string, D1Database>).NOT_BOUND as D1Database;
    expect(() => svcDatabaseAdapter(missing)).toThrow(/d1_databases/);
  });
});
