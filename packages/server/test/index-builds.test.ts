import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { applySchema } from "../src/db/storage.ts";
import { defineSchema, defineTable, v } from "../src/index.ts";
import { forceEviction, oldId, shardOf } from "./migration-support.ts";
import { rpcValue } from "./rpc.ts";

const indexesOf = (state: DurableObjectState, table: string) =>
  state.storage.sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name",
      table,
    )
    .toArray()
    .map((row) => row.name);

describe("index builds on big tables", () => {
  it("builds a new index at start up to rowsAtStart documents, and defers it above", async () => {
    const probe = defineSchema({
      probe: defineTable({ label: v.string() }).index("by_label", ["label"]),
    });
    await runInDurableObject(shardOf("index-apply"), (_instance, state) => {
      const { sql } = state.storage;
      sql.exec(
        'CREATE TABLE "t_probe" (_id TEXT PRIMARY KEY, _creationTime REAL NOT NULL, _doc TEXT NOT NULL)',
      );
      for (let i = 0; i < 1_500; i++) {
        sql.exec(
          'INSERT INTO "t_probe" VALUES (?, ?, ?)',
          oldId("probe"),
          i,
          `{"label":"l${i % 7}"}`,
        );
      }
      const deferred = applySchema(sql, probe, 1_000);
      expect(deferred.map((index) => index.sqlName)).toEqual([
        expect.stringMatching(/^i_probe__by_creation_time__/),
        expect.stringMatching(/^i_probe__by_label__/),
      ]);
      expect(indexesOf(state, "t_probe").some((name) => name.includes("by_label"))).toBe(false);
      expect(applySchema(sql, probe, 2_000)).toEqual([]);
      expect(indexesOf(state, "t_probe").some((name) => name.includes("by_label"))).toBe(true);
    });
  });

  it("serves the same results while a deferred index is built after start, then has it", async () => {
    const shardKey = "index-deferred";
    await rpcValue("items:add", { n: 1, label: "seven" }, { shardKey });
    const dropped = await runInDurableObject(shardOf(shardKey), (_instance, state) => {
      const { sql } = state.storage;
      state.storage.transactionSync(() => {
        for (let i = 0; i < 1_500; i++) {
          const doc = { n: i, label: `l${i % 7}`, migrated: 0 };
          sql.exec(
            'INSERT INTO "t_items" VALUES (?, ?, ?)',
            oldId("items"),
            Date.now() + i,
            JSON.stringify(doc),
          );
        }
      });
      const name = indexesOf(state, "t_items").find((index) =>
        index.includes("by_label"),
      ) as string;
      sql.exec(`DROP INDEX "${name}"`);
      return name;
    });
    await forceEviction(shardKey);
    const byLabel = await rpcValue<{ n: number }[]>("items:byLabel", { label: "l3" }, { shardKey });
    expect(byLabel.map((item) => item.n)).toEqual(
      Array.from({ length: 1_500 }, (_, i) => i).filter((i) => i % 7 === 3),
    );
    const deadline = Date.now() + 10_000;
    for (;;) {
      const names = await runInDurableObject(shardOf(shardKey), (_instance, state) =>
        indexesOf(state, "t_items"),
      );
      if (names.includes(dropped)) break;
      if (Date.now() > deadline)
        throw new Error(`index ${dropped} was never built: ${names.join(", ")}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await rpcValue("items:byLabel", { label: "l3" }, { shardKey })).toEqual(byLabel);
  });
});
