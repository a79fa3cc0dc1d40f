import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DataAuditEntry, ShardEntry } from "../../src/index.ts";
import { registryPartitionName, registryPartitionOf } from "../../src/registry/partitions.ts";
import { findShard } from "../../src/registry/reader.ts";
import { versionOf } from "../../src/schema/applied-version.ts";
import schema from "../fixture/schema.ts";
import { rpcValue } from "../rpc.ts";
import { ADMIN, DATA, dataAdmin, dataJson, eventually, registryRow, seedShard } from "./admin.ts";

type Page = { shards: ShardEntry[]; nextCursor: string | null };

const SHARDS = 50;
const keyOf = (i: number) => `reg-${String(i).padStart(3, "0")}`;

/** Every registry row whose key starts with `prefix`, page by page. */
async function listAll(prefix: string, limit: number): Promise<ShardEntry[]> {
  const rows: ShardEntry[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ search: prefix, limit: String(limit) });
    if (cursor !== null) query.set("cursor", cursor);
    const page: Page = await dataJson<Page>("GET", `shards?${query}`, 200);
    expect(page.shards.length).toBeLessThanOrEqual(limit);
    rows.push(...page.shards);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return rows;
}

describe("the shard registry", () => {
  it("lists every shard created by traffic, with its tables' document counts", async () => {
    // Shard i holds i % 7 notes and i % 3 messages.
    const version = await versionOf(schema);
    await Promise.all(Array.from({ length: SHARDS }, (_, i) => seedShard(keyOf(i), i % 7, i % 3)));

    const rows = await eventually(async () => {
      const all = await listAll("reg-", 200);
      const complete =
        all.length === SHARDS &&
        all.every(
          (row) =>
            row.documents === (Number(row.key.slice(4)) % 7) + (Number(row.key.slice(4)) % 3),
        );
      return complete ? all : undefined;
    }, `${SHARDS} shards in the registry`);
    expect(rows.map((row) => row.key)).toEqual(Array.from({ length: SHARDS }, (_, i) => keyOf(i)));
    for (const row of rows) {
      const i = Number(row.key.slice(4));
      const tables = Object.fromEntries(row.tables.map((t) => [t.name, t.documents]));
      expect(tables.notes).toBe(i % 7);
      expect(tables.messages).toBe(i % 3);
      expect(row.sizeBytes).toBeGreaterThan(0);
      expect(Date.parse(row.createdAt)).not.toBeNaN();
      expect(row.schemaVersion).toBe(version);
      if (row.documents > 0) expect(Date.parse(row.lastWriteAt ?? "")).not.toBeNaN();
    }
    // Paging merges the partitions in key order: small pages give the same list, each key once.
    expect((await listAll("reg-", 7)).map((row) => row.key)).toEqual(rows.map((row) => row.key));
  }, 60_000);

  it("searches keys, answers one shard's row, and refuses bad paging", async () => {
    await seedShard("search-Alpha-1", 2);
    await registryRow("search-Alpha-1", 2);
    const page = await dataJson<Page>("GET", "shards?search=alpha-1", 200);
    expect(page.shards.map((row) => row.key)).toEqual(["search-Alpha-1"]);

    const row = await dataJson<ShardEntry>("GET", "shards/search-Alpha-1", 200);
    expect(row).toMatchObject({ key: "search-Alpha-1", documents: 2 });
    expect(Object.keys(row).sort()).toEqual([
      "createdAt",
      "documents",
      "key",
      "lastWriteAt",
      "reportedAt",
      "schemaVersion",
      "sizeBytes",
      "tables",
    ]);

    const tooMany = await dataAdmin("GET", "shards?limit=1000");
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "query.limit" }],
    });
    expect((await dataAdmin("GET", "shards?cursor=%25%25")).status).toBe(400);
    expect((await dataAdmin("GET", "shards?sort=key")).status).toBe(400);
  });

  it("keeps writes off the registry's path: a write completes while its partition is blocked", async () => {
    const key = "off-path-1";
    const partition = env.DATA_SHARD.getByName(registryPartitionName(registryPartitionOf(key)));
    // The partition answers nothing for 3 s: a call that waited on it would end after that.
    let blockStarted = () => {};
    const started = new Promise<void>((resolve) => {
      blockStarted = resolve;
    });
    let unblocked = false;
    const block = runInDurableObject(partition, (_instance, state) =>
      state.blockConcurrencyWhile(async () => {
        blockStarted();
        await new Promise((resolve) => setTimeout(resolve, 3_000));
      }),
    ).then(() => {
      unblocked = true;
    });
    await started;
    // The control: reading the partition does wait for it.
    const read = dataAdmin("GET", `shards/${key}`).then(() => unblocked);
    await seedShard(key, 2);
    await seedShard(key, 1);
    expect(unblocked).toBe(false);
    expect(await read).toBe(true);
    await block;
    // The report goes out from the shard's alarm and lands once the partition answers again.
    expect((await registryRow(key, 3)).key).toBe(key);
  });

  it("lists a new shard right after its first write, then keeps the interval", async () => {
    // The main test worker's shards report at the default interval (10 s): well beyond the waits here.
    const key = "first-write-1";
    const seed = (notes: number) =>
      rpcValue("data:seed", { notes, messages: 0 }, { shardKey: key, user: "alice" });
    const documents = async () => (await findShard(env.SHARD, key))?.documents;
    await seed(2);
    expect(await eventually(documents, `${key} listed after its first write`, 5_000)).toBe(2);
    // A second write within the interval waits for the interval's end.
    await seed(1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await documents()).toBe(2);
  });

  it("folds writes within an interval into one later report", async () => {
    await seedShard("quick-1", 1);
    const row = await registryRow("quick-1", 1);
    // More writes within the interval fold into one later report with the new count.
    await seedShard("quick-1", 3);
    const later = await registryRow("quick-1", 4);
    expect(Date.parse(later.reportedAt)).toBeGreaterThan(Date.parse(row.reportedAt));
  });

  it("answers an unknown shard exactly as any other unknown admin path", async () => {
    const answers = await Promise.all(
      ["shards/never-created", "shards/never-created/export", "nothing-here"].map(async (path) => {
        const response = await dataAdmin("GET", path);
        return {
          status: response.status,
          headers: [...response.headers],
          body: await response.text(),
        };
      }),
    );
    expect(answers[0]!.status).toBe(404);
    expect(new Headers(answers[0]!.headers).get("content-type")).toBe("application/problem+json");
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ status: 404, code: "NOT_FOUND" });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    // Reading an unknown shard never creates it.
    expect((await dataAdmin("GET", "shards/never-created")).status).toBe(404);
  });

  it("refuses control characters in a key, so svc's reserved objects stay out of reach", async () => {
    const response = await dataAdmin("GET", "shards/%00svc%2Fregistry%2F00");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST" });
  });

  it("deletes a shard's data only with its key typed again, and drops it from the registry", async () => {
    await seedShard("doomed-1", 3, 2);
    await registryRow("doomed-1", 5);
    const missing = await dataAdmin("DELETE", "shards/doomed-1");
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ errors: [{ path: "query.confirm" }] });
    const wrong = await dataAdmin("DELETE", "shards/doomed-1?confirm=doomed-2");
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "query.confirm" }],
    });
    expect((await dataJson<ShardEntry>("GET", "shards/doomed-1", 200)).documents).toBe(5);

    const deleted = await dataJson<{ documents: number }>(
      "DELETE",
      "shards/doomed-1?confirm=doomed-1",
      200,
    );
    expect(deleted).toEqual({ key: "doomed-1", deleted: true, documents: 5 });
    const audit = (await (
      await exports.default.fetch("http://svc.test/__test/audit", { headers: DATA })
    ).json()) as DataAuditEntry[];
    expect(
      audit
        .filter((entry) => entry.targetId === "doomed-1")
        .map((entry) => [entry.operator, entry.action, entry.outcome]),
    ).toEqual([
      ["alice", "shard.delete", "error"],
      ["alice", "shard.delete", "error"],
      ["alice", "shard.delete", "ok"],
    ]);
    expect((await dataAdmin("GET", "shards/doomed-1")).status).toBe(404);
    const rpc = await exports.default.fetch("http://svc.test/_svc/rpc?shardKey=doomed-1", {
      method: "POST",
      headers: { ...DATA, "content-type": "application/json", "x-test-user": "alice" },
      body: JSON.stringify({ path: "data:dump", args: {} }),
    });
    expect(await rpc.json()).toEqual({ value: { notes: [], messages: [] } });
    // Written again, it is a new shard in the registry.
    await seedShard("doomed-1", 1);
    await registryRow("doomed-1", 1);
  });

  it("keeps the data routes behind the admin token", async () => {
    const response = await exports.default.fetch("http://svc.test/_svc/admin/data/shards", {
      headers: DATA,
    });
    expect(response.status).toBe(401);
    const ok = await exports.default.fetch("http://svc.test/_svc/admin/data/shards", {
      headers: { ...DATA, ...ADMIN },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
  });
});
