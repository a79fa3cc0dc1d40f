import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { applySearchIndexes } from "../src/db/search/fts-tables.ts";
import { schemaVersion, snapshotSchema } from "../src/schema/snapshot.ts";
import schema from "./fixture/schema.ts";
import { migrateUnderLoad } from "./migration-load.ts";
import {
  settled,
  shardOf,
  statusOf,
  storedDocuments,
  storeOldDocuments,
} from "./migration-support.ts";
import { rpc, rpcValue } from "./rpc.ts";

const ITEMS = "2026-01-01-items";
const GADGETS = "2026-01-02-gadgets";
const LEGACY = "2026-01-03-drop-legacy";
const LEGACY_SEARCH = { searchField: "old", filterFields: [] };

type Item = { _id: string; n: number; label: string; migrated: number };

describe("a shard's schema version and migrations at start", () => {
  it("records the schema version in _svc_meta and registers migrations of empty tables as done", async () => {
    const shardKey = "migrations-fresh";
    await rpcValue("items:add", { n: 1, label: "new" }, { shardKey });
    const version = await runInDurableObject(shardOf(shardKey), (_instance, state) =>
      state.storage.sql
        .exec<{ value: string }>("SELECT value FROM _svc_meta WHERE key = 'schema_version'")
        .one(),
    );
    expect(version.value).toBe(await schemaVersion(snapshotSchema(schema)));
    const states = (await shardOf(shardKey).migrationStatus()).map((s) => [s.name, s.state]);
    expect(states).toEqual([
      [ITEMS, "done"],
      [GADGETS, "done"],
      [LEGACY, "done"],
    ]);
  });
});

describe("an online migration in one shard", () => {
  it("presents unreached documents migrated, counts them in a dry run, then migrates each once", async () => {
    const shardKey = "migrations-basic";
    const old = Array.from({ length: 250 }, (_, i) =>
      i % 50 === 0 ? { n: -i - 1 } : i % 2 ? { n: 100 + i } : { n: 100 + i, label: `l${i % 3}` },
    );
    const ids = await storeOldDocuments(shardKey, "items", old);
    expect((await statusOf(shardKey, ITEMS)).state).toBe("registered");

    // Handlers never see an old shape: reads migrate in memory; negative n is deleted.
    const seen = await rpcValue<Item[]>("items:all", {}, { shardKey });
    expect(seen).toHaveLength(245);
    expect(seen.every((item) => item.migrated === 1 && typeof item.label === "string")).toBe(true);
    expect(await rpcValue("items:get", { id: ids[0] }, { shardKey })).toBeNull();
    expect(await rpcValue<Item>("items:get", { id: ids[1] }, { shardKey })).toMatchObject({
      n: 101,
      label: "none",
      migrated: 1,
    });
    const stillOld = await storedDocuments(shardKey, "items");
    expect(stillOld.get(ids[1] as string)).toEqual({ n: 101 });

    const dry = await shardOf(shardKey).dryRunMigration(ITEMS, shardKey, 2);
    expect(dry).toMatchObject({
      ok: true,
      value: { scanned: 250, wouldChange: 245, wouldDelete: 5, unchanged: 0, failed: 0 },
    });
    if (!dry.ok) throw new Error("dry run failed");
    expect(dry.value.samples).toEqual([
      { id: ids[0], before: { n: -1, _id: ids[0], _creationTime: 1_000_000 }, after: null },
      {
        id: ids[1],
        before: { n: 101, _id: ids[1], _creationTime: 1_000_001 },
        after: { n: 101, label: "none", migrated: 1, _id: ids[1], _creationTime: 1_000_001 },
      },
    ]);
    expect((await storedDocuments(shardKey, "items")).get(ids[1] as string)).toEqual({ n: 101 });

    const started = await shardOf(shardKey).runMigration(ITEMS, shardKey);
    expect(started).toMatchObject({ ok: true, value: [{ name: ITEMS, state: "running" }] });
    const done = await settled(shardKey, ITEMS);
    expect(done).toMatchObject({
      state: "done",
      scanned: 250,
      changed: 245,
      deleted: 5,
      unchanged: 0,
      failed: 0,
      error: null,
    });
    const stored = await storedDocuments(shardKey, "items");
    expect(stored.size).toBe(245);
    expect([...stored.values()].every((doc) => doc.migrated === 1)).toBe(true);
    // A finished migration presents nothing: the reads see what is stored.
    expect(await rpcValue<Item[]>("items:all", {}, { shardKey })).toEqual(seen);
  });

  it("stops at a document that throws, names it, hides it from reads, and resumes once it is gone", async () => {
    const shardKey = "migrations-stop";
    const ids = await storeOldDocuments(
      shardKey,
      "items",
      Array.from({ length: 120 }, (_, i) => ({ n: i === 60 ? 13 : 1_000 + i })),
    );
    await shardOf(shardKey).runMigration(ITEMS, shardKey);
    const stopped = await settled(shardKey, ITEMS);
    expect(stopped).toMatchObject({
      state: "stopped",
      scanned: 60,
      changed: 60,
      error: { id: ids[60], message: "13 is unlucky" },
    });
    const stored = await storedDocuments(shardKey, "items");
    expect(stored.get(ids[59] as string)).toMatchObject({ migrated: 1 });
    expect(stored.get(ids[61] as string)).toEqual({ n: 1_061 });
    // Readers see 119 valid documents; writes to the broken one find nothing.
    expect(await rpcValue<Item[]>("items:all", {}, { shardKey })).toHaveLength(119);
    expect((await rpc("items:remove", { id: ids[60] }, { shardKey })).status).toBe(404);

    await runInDurableObject(shardOf(shardKey), (_instance, state) => {
      state.storage.sql.exec('DELETE FROM "t_items" WHERE _id = ?', ids[60]);
    });
    await shardOf(shardKey).runMigration(ITEMS, shardKey);
    expect(await settled(shardKey, ITEMS)).toMatchObject({
      state: "done",
      scanned: 119,
      changed: 119,
      error: null,
    });
  });

  it("skips what it cannot migrate, reports each id, and retries them on the next run", async () => {
    const shardKey = "migrations-skip";
    const ids = await storeOldDocuments(
      shardKey,
      "gadgets",
      Array.from({ length: 130 }, (_, i) => (i === 3 ? { n: i, size: "huge" } : { n: i })),
    );
    await shardOf(shardKey).runMigration(GADGETS, shardKey);
    const done = await settled(shardKey, GADGETS);
    expect(done).toMatchObject({ state: "done", scanned: 130, changed: 127, failed: 3 });
    expect(done.failedDocuments.map((failure) => failure.id).sort()).toEqual(
      [ids[3], ids[7], ids[107]].sort(),
    );
    expect(done.failedDocuments.find((failure) => failure.id === ids[7])?.message).toBe(
      "cannot migrate 7",
    );
    expect(done.failedDocuments.find((failure) => failure.id === ids[3])?.message).toMatch(
      /does not match the schema \(gadgets\.size: expected string, got number\)/,
    );
    const visible = await rpcValue<{ _id: string }[]>("items:gadgets", {}, { shardKey });
    expect(visible).toHaveLength(127);
    expect(visible.map((doc) => doc._id)).not.toContain(ids[7]);

    // The code is fixed by hand here: the bad documents get a shape the migration accepts.
    await runInDurableObject(shardOf(shardKey), (_instance, state) => {
      state.storage.sql.exec(
        `UPDATE "t_gadgets" SET _doc = '{"n":8,"size":"s"}' WHERE _id IN (?, ?, ?)`,
        ids[3],
        ids[7],
        ids[107],
      );
    });
    await shardOf(shardKey).runMigration(GADGETS, shardKey);
    expect(await settled(shardKey, GADGETS)).toMatchObject({
      state: "done",
      changed: 127,
      unchanged: 3,
      failed: 0,
      error: null,
      failedDocuments: [],
    });
    expect(await rpcValue<unknown[]>("items:gadgets", {}, { shardKey })).toHaveLength(130);
  });

  it("drops a table the schema removed, batch by batch", async () => {
    const shardKey = "migrations-drop";
    await storeOldDocuments(
      shardKey,
      "legacy",
      Array.from({ length: 90 }, (_, i) => ({ old: i })),
    );
    const dry = await shardOf(shardKey).dryRunMigration(LEGACY, shardKey, 0);
    expect(dry).toMatchObject({ ok: true, value: { scanned: 90, wouldDelete: 90 } });
    await shardOf(shardKey).runMigration(LEGACY, shardKey);
    expect(await settled(shardKey, LEGACY)).toMatchObject({
      state: "done",
      scanned: 90,
      deleted: 90,
    });
    expect((await storedDocuments(shardKey, "legacy")).size).toBe(0);
  });

  it("drops the search indexes of a table it drops", async () => {
    const shardKey = "migrations-drop-search";
    await storeOldDocuments(shardKey, "legacy", [{ old: "first words" }, { old: "more words" }]);
    const shard = shardOf(shardKey);
    // The table had a search index while the schema still declared it.
    await runInDurableObject(shard, (_instance, state) => {
      applySearchIndexes(state.storage.sql, "legacy", { search_old: LEGACY_SEARCH }, 1_000);
    });
    const searchTables = () =>
      runInDurableObject(shard, (_instance, state) =>
        state.storage.sql
          .exec<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 's\\_legacy\\_\\_%' ESCAPE '\\'",
          )
          .toArray()
          .map((row) => row.name),
      );
    // The FTS5 table and its shadow tables.
    expect((await searchTables()).length).toBeGreaterThan(1);
    await shard.runMigration(LEGACY, shardKey);
    expect(await settled(shardKey, LEGACY)).toMatchObject({ state: "done", deleted: 2 });
    expect(await searchTables()).toEqual([]);
  });

  it("answers NOT_FOUND for a migration the app does not declare", async () => {
    const result = await shardOf("migrations-unknown").runMigration("nope", "migrations-unknown");
    expect(result).toMatchObject({
      ok: false,
      error: { code: "NOT_FOUND", message: 'No migration named "nope".' },
    });
  });
});

describe("a migration under load, across an eviction", () => {
  it("migrates 2,000 documents in each of 2 shards once while reads and writes run, with 0 5xx and 0 lost writes", async () => {
    const { calls } = await migrateUnderLoad(["migrations-load-a", "migrations-load-b"], 2_000);
    expect(calls).toBeGreaterThan(0);
  }, 60_000);
});
