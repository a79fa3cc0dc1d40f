import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { dashboardAssets } from "@svc/dashboard";
import { createWorker, ERROR_STATUS, SvcError } from "@svc/server";
import { APIError, betterAuth } from "better-auth";
import { memoryAdapter } from "better-auth/adapters/memory";
import { describe, expect, it, vi } from "vitest";
import { toAdminError } from "../src/admin/errors.ts";
import {
  type AuthAdminOptions,
  createAuth,
  createAuthAdmin,
  SvcAuthError,
  svcDatabaseAdapter,
} from "../src/index.ts";
import { passkey } from "../src/plugins/passkey.ts";
import {
  admin,
  bearer,
  createAccessControl,
  magicLink,
  organization,
  twoFactor,
  username,
} from "../src/plugins.ts";
import { adminFetch, adminJson, signUp } from "./admin-http.ts";
import { ADMIN_TOKENS } from "./fixture/admin.ts";
import { TEST_ORIGIN, TEST_SECRET } from "./fixture/constants.ts";
import { freshEmail } from "./http.ts";

type Plugins = NonNullable<Parameters<typeof createAuth>[0]["plugins"]>;

function authWith(plugins: Plugins) {
  return createAuth({
    secret: TEST_SECRET,
    baseURL: TEST_ORIGIN,
    database: svcDatabaseAdapter(env.ADMIN_SCRATCH),
    emailAndPassword: { enabled: true },
    plugins,
  });
}

/** A worker with this auth's admin surface behind the real admin gate. */
function gated(plugins: Plugins, options?: AuthAdminOptions) {
  const worker = createWorker({
    shardDO: "SHARD",
    functions: {},
    adminToken: ADMIN_TOKENS,
    authAdmin: createAuthAdmin(authWith(plugins), options),
  });
  return async (path: string, method = "GET") => {
    const response = await worker.fetch(
      new Request(`${TEST_ORIGIN}/_svc/admin/auth/${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKENS.ci}` },
      }),
      env,
      createExecutionContext(),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

const ac = createAccessControl({ user: ["ban"] } as const);
const customRoles = {
  support: ac.newRole({ user: ["ban"] }),
  superadmin: ac.newRole({ user: ["ban"] }),
  member: ac.newRole({ user: [] }),
};

describe("GET capabilities", () => {
  it.each([
    {
      name: "email + password only",
      plugins: [],
      options: undefined,
      expected: {
        userActions: false,
        organizations: false,
        twoFactor: false,
        passkeys: false,
        username: false,
        roles: [],
        plugins: [],
      },
    },
    {
      name: "admin (default roles), bearer",
      plugins: [admin(), bearer()],
      options: undefined,
      expected: {
        userActions: true,
        organizations: false,
        twoFactor: false,
        passkeys: false,
        username: false,
        roles: ["user", "admin"],
        plugins: ["admin", "bearer"],
      },
    },
    {
      name: "every plugin with a surface",
      plugins: [
        admin(),
        organization(),
        twoFactor(),
        passkey(),
        username(),
        magicLink({ sendMagicLink: async () => {} }),
      ],
      options: undefined,
      expected: {
        userActions: true,
        organizations: true,
        twoFactor: true,
        passkeys: true,
        username: true,
        roles: ["user", "admin"],
        plugins: ["admin", "organization", "two-factor", "passkey", "username", "magic-link"],
      },
    },
    {
      name: "every plugin, organization and two-factor forced off by features",
      plugins: [admin(), organization(), twoFactor(), passkey(), username()],
      options: { features: { organization: false, twoFactor: false } },
      expected: {
        userActions: true,
        organizations: false,
        twoFactor: false,
        passkeys: true,
        username: true,
        plugins: ["admin", "organization", "two-factor", "passkey", "username"],
      },
    },
    {
      name: "custom admin roles; user actions forced off by features",
      plugins: [admin({ ac, roles: customRoles, adminRoles: ["superadmin"] }), passkey()],
      options: { features: { admin: false, passkey: true } },
      expected: { userActions: false, passkeys: true, roles: [] },
    },
    {
      name: "custom admin roles",
      plugins: [admin({ ac, roles: customRoles, adminRoles: ["superadmin"] })],
      options: undefined,
      expected: { userActions: true, roles: ["support", "superadmin", "member"] },
    },
  ] satisfies {
    name: string;
    plugins: Plugins;
    options: AuthAdminOptions | undefined;
    expected: object;
  }[])("$name", async ({ plugins, options, expected }) => {
    const { status, body } = await gated(plugins, options)("capabilities");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ...expected,
      linkedAccounts: true,
      sessions: true,
      auditActions: expect.arrayContaining(["user.ban", "account.unlink"]),
      passwordLength: { min: 8, max: 128 },
    });
  });

  it("removes the routes of a surface that is off (404), and answers organizations as not enabled", async () => {
    const call = gated([admin(), organization(), twoFactor(), passkey()], {
      features: { organization: false, twoFactor: false, passkey: false },
    });
    expect(await call("organizations")).toEqual({
      status: 200,
      body: { enabled: false, organizations: [], total: 0, nextCursor: null },
    });
    for (const [path, method] of [
      ["organizations/o1", "GET"],
      ["organizations/o1/members", "GET"],
      ["organizations/o1/invitations", "GET"],
      ["users/u1/two-factor/disable", "POST"],
      ["users/u1/passkeys", "GET"],
      ["users/u1/passkeys/p1", "DELETE"],
    ] as const) {
      expect(await call(path, method), `${method} ${path}`).toMatchObject({
        status: 404,
        body: { code: "NOT_FOUND" },
      });
    }
    const withoutAdmin = gated([]);
    for (const [path, method] of [
      ["users", "POST"],
      ["users/u1", "DELETE"],
      ["users/u1/role", "POST"],
      ["users/u1/ban", "POST"],
      ["users/u1/unban", "POST"],
      ["users/u1/password", "POST"],
      ["users/u1/impersonate", "POST"],
      ["users/u1/impersonation-link", "POST"],
    ] as const) {
      const answer = await withoutAdmin(path, method);
      // `users` and `users/:id` exist for GET, so another method there is 405; the rest are gone.
      expect(answer.status, `${method} ${path}`).toBe(path.split("/").length <= 2 ? 405 : 404);
    }
  });
});

describe("createAuthAdmin configuration", () => {
  const auth = authWith([admin()]);

  it.each([
    [{ features: { organisation: false } }, /options\.features\.organisation is not an option/],
    [{ feature: {} }, /options\.feature is not an option/],
    [{ impersonation: { maxDurationSeconds: 10 } }, /at least 60/],
    [{ impersonation: { minDurationSeconds: 0 } }, /minDurationSeconds must be .* at least 1/],
    [
      { impersonation: { minDurationSeconds: 120, maxDurationSeconds: 90 } },
      /DurationSeconds must be .* at least 120/,
    ],
    [{ impersonation: { landingPath: "https://evil.example/" } }, /landingPath must be a path/],
    [{ impersonation: { landingPath: "//evil.example" } }, /landingPath must be a path/],
    [
      { impersonation: { defaultDurationSeconds: 7200 } },
      /defaultDurationSeconds is longer than maxDurationSeconds/,
    ],
  ])("refuses %j at once", (options, message) => {
    expect(() => createAuthAdmin(auth, options as AuthAdminOptions)).toThrow(message);
  });

  it("refuses an auth it cannot serve, saying why", () => {
    const plain = betterAuth({ secret: TEST_SECRET, database: env.ADMIN_SCRATCH });
    expect(() => createAuthAdmin(plain)).toThrow(SvcAuthError);
    expect(() => createAuthAdmin(plain)).toThrow(/built with createAuth/);
    const inMemory = createAuth({ secret: TEST_SECRET, database: memoryAdapter({}) });
    expect(() => createAuthAdmin(inMemory)).toThrow(/needs an auth on D1/);
    const cached = createAuth({
      secret: TEST_SECRET,
      database: env.ADMIN_SCRATCH,
      secondaryStorage: {
        get: async () => null,
        set: async () => {},
        delete: async () => {},
        getAndDelete: async () => null,
        increment: async () => 1,
      },
    });
    expect(() => createAuthAdmin(cached)).toThrow(/secondaryStorage/);
    // Regression: with a dynamic baseURL and no fallback, creating a user answered 500.
    const dynamic = (fallback?: string) =>
      createAuth({
        secret: TEST_SECRET,
        database: env.ADMIN_SCRATCH,
        baseURL: { allowedHosts: ["127.0.0.1:*"], ...(fallback ? { fallback } : {}) },
      });
    expect(() => createAuthAdmin(dynamic())).toThrow(/add `fallback`/);
    expect(() => createAuthAdmin(dynamic("http://127.0.0.1:8787"))).not.toThrow();
  });

  it("carries @svc/dashboard by default, another dashboard when given one, none with false", () => {
    const dashboard = { files: { "index.html": { body: "<p>", contentType: "text/html" } } };
    expect(createAuthAdmin(auth, { dashboard }).dashboard).toBe(dashboard);
    expect(createAuthAdmin(auth).dashboard).toBe(dashboardAssets);
    expect(Object.keys(dashboardAssets.files)).toContain("index.html");
    expect(createAuthAdmin(auth, { dashboard: false }).dashboard).toBeUndefined();
  });
});

describe("bad input", () => {
  it("answers each kind of bad request with a clear problem, and changes nothing", async () => {
    const id = await signUp(freshEmail("input"), "input-password-1");
    const raw = (init: RequestInit) =>
      exports.default.fetch(`${TEST_ORIGIN}/_svc/admin/auth/users/${id}/role`, {
        method: "POST",
        ...init,
        headers: { authorization: `Bearer ${ADMIN_TOKENS.alice}`, ...init.headers },
      });
    const cases: [RequestInit, number, object][] = [
      [
        { body: "{nope", headers: { "content-type": "application/json" } },
        400,
        { code: "BAD_REQUEST", detail: "The request body is not valid JSON." },
      ],
      [
        { body: '{"role":"admin"}', headers: { "content-type": "text/plain" } },
        400,
        { code: "BAD_REQUEST" },
      ],
      [
        { body: '["admin"]', headers: { "content-type": "application/json" } },
        400,
        { detail: "The request body must be a JSON object." },
      ],
      [
        { body: '{"role":"admin","extra":1}', headers: { "content-type": "application/json" } },
        400,
        {
          code: "VALIDATION_FAILED",
          errors: [{ path: "body.extra", message: "unexpected field" }],
        },
      ],
      [
        { body: '{"role":5}', headers: { "content-type": "application/json" } },
        400,
        { code: "VALIDATION_FAILED", errors: [{ path: "body.role" }] },
      ],
      [
        {
          body: JSON.stringify({ role: "x".repeat(70_000) }),
          headers: { "content-type": "application/json" },
        },
        413,
        { code: "PAYLOAD_TOO_LARGE" },
      ],
    ];
    for (const [init, status, problem] of cases) {
      const response = await raw(init);
      expect(response.status, JSON.stringify(init.body).slice(0, 60)).toBe(status);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(await response.json()).toMatchObject(problem);
    }
    const { user } = await adminJson<{ user: { role: string } }>("GET", `users/${id}`, 200);
    expect(user.role).toBe("user");
  });

  it("allow-lists query parameters, sorts and filters", async () => {
    for (const [query, path] of [
      ["users?sort=password", "query.sort"],
      ["users?limit=0", "query.limit"],
      ["users?limit=101", "query.limit"],
      ["users?limit=ten", "query.limit"],
      ["users?banned=yes", "query.banned"],
      ["users?order=sideways", "query.order"],
      ["users?email=a", "query.email"],
      ["users?limit=1&limit=2", "query.limit"],
      ["users?cursor=not-a-cursor", "query.cursor"],
      ["audit?action=user.explode", "query.action"],
      ["capabilities?x=1", "query.x"],
    ]) {
      const problem = await adminJson<{ code: string; errors: { path: string }[] }>(
        "GET",
        query!,
        400,
      );
      expect(problem.code, query).toBe("VALIDATION_FAILED");
      expect(
        problem.errors.map((issue) => issue.path),
        query,
      ).toContain(path);
    }
  });

  it("404s unknown routes and ids, 405s other methods with Allow", async () => {
    for (const path of [
      "",
      "nothing",
      "users/u1/nothing",
      "users//sessions",
      "users/%E0%A4%A/sessions",
    ]) {
      expect((await adminFetch("GET", path)).status, path).toBe(404);
    }
    expect(await adminJson("GET", "users/no-such-user", 404)).toMatchObject({ code: "NOT_FOUND" });
    expect(await adminJson("GET", "organizations/no-such-org", 404)).toMatchObject({
      detail: 'No organization with id "no-such-org".',
    });
    const response = await adminFetch("PATCH", "users");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST");
  });

  it("finds users whatever the search term holds: long terms, LIKE wildcards, case", async () => {
    const email = `${"long".repeat(12)}_50-${crypto.randomUUID()}@svc.test`;
    const id = await signUp(email, "search-password-1", "Wild_Card 50%");
    for (const term of [email.toUpperCase(), "g_50-", "wild_card 50%"]) {
      const { users } = await adminJson<{ users: { id: string }[] }>(
        "GET",
        `users?search=${encodeURIComponent(term)}`,
        200,
      );
      expect(
        users.map((user) => user.id),
        term,
      ).toContain(id);
    }
    const { total } = await adminJson<{ total: number }>(
      "GET",
      "users?search=%25_%25_%25_nothing",
      200,
    );
    expect(total).toBe(0);
  });
});

describe("the audit trail", () => {
  it("records every action with its operator and outcome, failures included", async () => {
    const id = await signUp(freshEmail("audited"), "audit-password-1");
    await adminJson("POST", `users/${id}/ban`, 200, { body: { reason: "abuse" } });
    await adminJson("POST", `users/${id}/ban`, 409, { token: ADMIN_TOKENS.ci });
    await adminJson("POST", `users/${id}/role`, 400, { body: { role: "wizard" } });
    await adminJson("POST", `users/${id}/unban`, 200, { token: ADMIN_TOKENS.ci });
    const { entries } = await adminJson<{ entries: Record<string, unknown>[] }>(
      "GET",
      `audit?target=${id}`,
      200,
    );
    expect(entries).toMatchObject([
      { action: "user.unban", operator: "ci", outcome: "ok", targetType: "user", targetId: id },
      {
        action: "user.role",
        operator: "alice",
        outcome: "error",
        detail: expect.stringContaining("unknown role"),
      },
      {
        action: "user.ban",
        operator: "ci",
        outcome: "error",
        detail: expect.stringContaining("already banned"),
      },
      {
        action: "user.ban",
        operator: "alice",
        outcome: "ok",
        reason: "abuse",
        detail: "permanent ban",
      },
    ]);
    for (const entry of entries) expect(Date.parse(String(entry.at))).not.toBeNaN();
    const { entries: byCi } = await adminJson<{ entries: unknown[] }>(
      "GET",
      `audit?target=${id}&operator=ci&action=user.ban`,
      200,
    );
    expect(byCi).toHaveLength(1);
  });

  it("finds a user's entries by email, failed creations under that email included", async () => {
    const email = freshEmail("audit-by-email");
    await adminJson("POST", "users", 400, { body: { email, name: "" } });
    const id = await signUp(email, "audit-password-3");
    await adminJson("POST", `users/${id}/ban`, 200, {});
    const { entries } = await adminJson<{ entries: Record<string, unknown>[] }>(
      "GET",
      `audit?target=${encodeURIComponent(email.toUpperCase())}`,
      200,
    );
    expect(entries).toMatchObject([
      { action: "user.ban", outcome: "ok", targetId: id, userId: id },
      { action: "user.create", outcome: "error", targetId: email, userId: null },
    ]);
  });

  it("pages newest first, each entry once", async () => {
    const id = await signUp(freshEmail("paged-audit"), "audit-password-2");
    for (let i = 0; i < 9; i++) await adminJson("POST", `users/${id}/unban`, 409);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { entries: { id: string; at: string }[]; nextCursor: string | null } =
        await adminJson(
          "GET",
          `audit?target=${id}&limit=4${cursor === null ? "" : `&cursor=${cursor}`}`,
          200,
        );
      seen.push(...page.entries.map((entry) => entry.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toHaveLength(9);
    expect(new Set(seen).size).toBe(9);
  });

  it("cannot be changed through the API", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const response = await adminFetch(method, "audit", { body: {} });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET");
    }
    expect((await adminFetch("DELETE", "audit/some-entry")).status).toBe(404);
  });
});

describe("better-auth errors", () => {
  it.each([
    ["BAD_REQUEST", "BAD_REQUEST"],
    ["UNAUTHORIZED", "FORBIDDEN"],
    ["PAYMENT_REQUIRED", "BAD_REQUEST"],
    ["FORBIDDEN", "FORBIDDEN"],
    ["NOT_FOUND", "NOT_FOUND"],
    ["CONFLICT", "CONFLICT"],
    ["GONE", "BAD_REQUEST"],
    ["PAYLOAD_TOO_LARGE", "PAYLOAD_TOO_LARGE"],
    ["UNPROCESSABLE_ENTITY", "VALIDATION_FAILED"],
    ["LOCKED", "BAD_REQUEST"],
    ["TOO_MANY_REQUESTS", "RATE_LIMITED"],
    ["SERVICE_UNAVAILABLE", "UNAVAILABLE"],
  ] as const)("maps %s to %s, keeping better-auth's message and code", (status, code) => {
    const error = new APIError(status, { message: "Told by better-auth", code: "SOME_CODE" });
    const mapped = toAdminError(error);
    expect(mapped).toBeInstanceOf(SvcError);
    expect(mapped).toMatchObject({
      code,
      message: "Told by better-auth",
      data: { authCode: "SOME_CODE" },
    });
    // A client error stays a client error.
    if (error.statusCode < 500) expect(ERROR_STATUS[code]).toBeLessThan(500);
  });

  it("maps codes whose status says too little, and 5xx to INTERNAL without better-auth's message", () => {
    expect(
      toAdminError(
        APIError.from("BAD_REQUEST", {
          code: "USER_ALREADY_EXISTS",
          message: "User already exists.",
        }),
      ),
    ).toMatchObject({ code: "CONFLICT", message: "User already exists." });
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(
      toAdminError(new APIError("INTERNAL_SERVER_ERROR", { message: "db down at 10.0.0.3" })),
    ).toMatchObject({
      code: "INTERNAL",
      message: "An internal error occurred.",
    });
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });

  it("maps D1 constraint failures to CONFLICT and leaves other errors to the INTERNAL normalizer", () => {
    expect(
      toAdminError(new Error("D1_ERROR: UNIQUE constraint failed: user.email: SQLITE_CONSTRAINT")),
    ).toMatchObject({
      code: "CONFLICT",
    });
    expect(toAdminError(new Error("FOREIGN KEY constraint failed"))).toMatchObject({
      code: "CONFLICT",
    });
    const other = new TypeError("boom");
    expect(toAdminError(other)).toBe(other);
  });
});
