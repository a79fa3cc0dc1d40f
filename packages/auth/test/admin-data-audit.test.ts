import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../src/admin/contract/index.ts";
import { adminJson } from "./admin-http.ts";
import { ADMIN_TOKENS } from "./fixture/admin.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";

/** Calls `/_svc/admin/data/<path>` with an operator's admin token. */
function dataAdmin(method: string, path: string, token: string = ADMIN_TOKENS.alice) {
  return exports.default.fetch(`${TEST_ORIGIN}/_svc/admin/data/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
  });
}

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("data actions in the audit trail", () => {
  it("records shard deletion, refusals included, with the operator, beside user actions", async () => {
    const key = "audited-shard-1";
    const call = await exports.default.fetch(`${TEST_ORIGIN}/_svc/rpc?shardKey=${key}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "session:whoami", args: {} }),
    });
    expect(call.status).toBe(200);
    await until(async () =>
      (await dataAdmin("GET", `shards/${key}`)).status === 200 ? true : undefined,
    );

    expect((await dataAdmin("DELETE", `shards/${key}?confirm=wrong`, ADMIN_TOKENS.ci)).status).toBe(
      400,
    );
    const deleted = await dataAdmin("DELETE", `shards/${key}?confirm=${key}`);
    expect(deleted.status).toBe(200);

    const { entries } = await adminJson<{ entries: AuditEntry[] }>(
      "GET",
      `audit?action=shard.delete&target=${key}`,
      200,
    );
    expect(entries.map(({ id: _id, at: _at, ...rest }) => rest)).toEqual([
      {
        operator: "alice",
        action: "shard.delete",
        targetType: "shard",
        targetId: key,
        userId: null,
        user: null,
        outcome: "ok",
        detail: "0 documents deleted",
        reason: null,
      },
      {
        operator: "ci",
        action: "shard.delete",
        targetType: "shard",
        targetId: key,
        userId: null,
        user: null,
        outcome: "error",
        detail:
          "Invalid request: query.confirm: must repeat the shard key exactly, to confirm that its data is to be deleted",
        reason: null,
      },
    ]);
    const capabilities = await adminJson<{ auditActions: string[] }>("GET", "capabilities", 200);
    expect(capabilities.auditActions).toEqual(
      expect.arrayContaining(["shard.delete", "shard.export", "shard.import", "shard.restore"]),
    );
  });
});
