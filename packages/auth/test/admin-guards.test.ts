import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createWorker } from "@svc/server";
import type { BetterAuthPlugin } from "better-auth";
import { beforeAll, describe, expect, it } from "vitest";
import { createAuth, createAuthAdmin, ensureMigrated, svcDatabaseAdapter } from "../src/index.ts";
import { admin, organization } from "../src/plugins.ts";
import { ADMIN_TOKENS } from "./fixture/admin.ts";
import { billing } from "./fixture/billing-plugin.ts";
import { TEST_ORIGIN, TEST_SECRET } from "./fixture/constants.ts";

/** A community plugin whose rows must block deleting their user (`onDelete: "restrict"`). */
function legalHold() {
  return {
    id: "legal-hold",
    schema: {
      legalHold: {
        fields: {
          userId: {
            type: "string",
            required: true,
            references: { model: "user", field: "id", onDelete: "restrict" },
          },
        },
      },
    },
  } satisfies BetterAuthPlugin;
}

// Its own database: "the last admin" is a fact about every user in it.
const db = env.ADMIN_SCRATCH;
const auth = createAuth({
  secret: TEST_SECRET,
  baseURL: TEST_ORIGIN,
  database: svcDatabaseAdapter(db),
  emailAndPassword: { enabled: true },
  plugins: [admin(), organization(), billing(), legalHold()],
});
const worker = createWorker({
  shardDO: "SHARD",
  functions: {},
  adminToken: ADMIN_TOKENS,
  authAdmin: createAuthAdmin(auth),
});

async function call(method: string, path: string, body?: unknown) {
  const response = await worker.fetch(
    new Request(`${TEST_ORIGIN}/_svc/admin/auth/${path}`, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN_TOKENS.alice}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    env,
    createExecutionContext(),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function createUser(name: string, role = "user"): Promise<string> {
  const { status, body } = await call("POST", "users", {
    email: `${name}-${crypto.randomUUID()}@svc.test`,
    name,
    role,
  });
  expect(status).toBe(201);
  return (body.user as { id: string }).id;
}

async function insert(table: string, row: Record<string, unknown>) {
  const columns = Object.keys(row);
  await db
    .prepare(
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    )
    .bind(...Object.values(row))
    .run();
}

const count = async (table: string, column: string, value: string) =>
  db.prepare(`SELECT COUNT(*) AS n FROM "${table}" WHERE "${column}" = ?`).bind(value).first("n");

beforeAll(async () => {
  await ensureMigrated(auth);
});

describe("the last admin", () => {
  it("cannot be deleted or demoted; once there is another admin, can", async () => {
    const first = await createUser("first-admin", "admin");
    expect(await call("DELETE", `users/${first}`)).toMatchObject({
      status: 409,
      body: {
        code: "CONFLICT",
        detail: "Cannot delete the last admin user; make another user an admin first.",
      },
    });
    expect(await call("POST", `users/${first}/role`, { role: "user" })).toMatchObject({
      status: 409,
      body: { detail: expect.stringContaining("remove the admin role from the last admin") },
    });
    const second = await createUser("second-admin", "user,admin");
    expect((await call("POST", `users/${first}/role`, { role: "user" })).status).toBe(200);
    expect((await call("DELETE", `users/${second}`)).status).toBe(409);
    expect((await call("POST", `users/${first}/role`, { role: "admin" })).status).toBe(200);
    expect((await call("DELETE", `users/${second}`)).status).toBe(200);
  });
});

describe("delete and organizations", () => {
  it("refuses the last owner of an organization, naming it; deletes a member with their membership", async () => {
    const owner = await createUser("owner");
    const member = await createUser("member");
    const orgId = `org-${crypto.randomUUID()}`;
    await insert("organization", {
      id: orgId,
      name: "Acme",
      slug: orgId,
      createdAt: new Date().toISOString(),
    });
    for (const [userId, role] of [
      [owner, "owner"],
      [member, "member"],
    ]) {
      await insert("member", {
        id: crypto.randomUUID(),
        organizationId: orgId,
        userId,
        role,
        createdAt: new Date().toISOString(),
      });
    }
    expect(await call("DELETE", `users/${owner}`)).toMatchObject({
      status: 409,
      body: {
        detail: 'This user is the last owner of "Acme", so deleting them is refused.',
        data: { organizations: [orgId] },
      },
    });
    expect((await call("DELETE", `users/${member}`)).status).toBe(200);
    expect(await count("member", "userId", member)).toBe(0);
    await db
      .prepare(`UPDATE "member" SET "role" = 'admin,owner' WHERE "userId" = ?`)
      .bind(owner)
      .run();
    const coOwner = await createUser("co-owner");
    await insert("member", {
      id: crypto.randomUUID(),
      organizationId: orgId,
      userId: coOwner,
      role: "owner",
      createdAt: new Date().toISOString(),
    });
    expect((await call("DELETE", `users/${owner}`)).status).toBe(200);
  });
});

describe("delete and other plugins' tables", () => {
  it("removes a community plugin's dependent rows, and refuses rows whose schema forbids it", async () => {
    const subscriber = await createUser("subscriber");
    await insert("subscription", {
      id: crypto.randomUUID(),
      plan: "pro",
      status: "active",
      referenceId: subscriber,
    });
    expect((await call("DELETE", `users/${subscriber}`)).status).toBe(200);
    expect(await count("subscription", "referenceId", subscriber)).toBe(0);

    const held = await createUser("held");
    await insert("legalHold", { id: crypto.randomUUID(), userId: held });
    expect(await call("DELETE", `users/${held}`)).toMatchObject({
      status: 409,
      body: { code: "CONFLICT" },
    });
    expect(await count("user", "id", held)).toBe(1);
  });

  it("records refusals in the audit trail as errors", async () => {
    const held = await createUser("held-audit");
    await insert("legalHold", { id: crypto.randomUUID(), userId: held });
    await call("DELETE", `users/${held}`);
    const { body } = await call("GET", `audit?target=${held}&action=user.delete`);
    expect(body.entries).toMatchObject([
      {
        operator: "alice",
        action: "user.delete",
        outcome: "error",
        detail: expect.stringContaining("legalHold"),
      },
    ]);
  });
});
