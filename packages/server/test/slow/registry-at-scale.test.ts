import { describe, expect, it } from "vitest";
import type { ShardEntry } from "../../src/index.ts";
import { dataJson, eventually, seedShard } from "../data/admin.ts";

const SHARDS = 1_000;
const CONCURRENCY = 25;
const keyOf = (i: number) => `scale-${String(i).padStart(4, "0")}`;
/** Shard i holds i % 5 notes and i % 4 messages: every shard's counts differ from its neighbours'. */
const expected = (i: number) => ({ notes: i % 5, messages: i % 4 });

type Page = { shards: ShardEntry[]; nextCursor: string | null };

async function listAll(): Promise<ShardEntry[]> {
  const rows: ShardEntry[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ search: "scale-", limit: "200" });
    if (cursor !== null) query.set("cursor", cursor);
    const page: Page = await dataJson<Page>("GET", `shards?${query}`, 200);
    rows.push(...page.shards);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return rows;
}

describe("the shard registry at 1,000 shards", () => {
  it("lists every shard created by traffic, each with its correct document counts", async () => {
    for (let start = 0; start < SHARDS; start += CONCURRENCY) {
      await Promise.all(
        Array.from({ length: Math.min(CONCURRENCY, SHARDS - start) }, (_, offset) => {
          const i = start + offset;
          return seedShard(keyOf(i), expected(i).notes, expected(i).messages);
        }),
      );
    }
    const rows = await eventually(
      async () => {
        const all = await listAll();
        const complete =
          all.length === SHARDS &&
          all.every((row) => {
            const { notes, messages } = expected(Number(row.key.slice(6)));
            return row.documents === notes + messages;
          });
        return complete ? all : undefined;
      },
      `${SHARDS} shards in the registry`,
      120_000,
    );
    expect(rows.map((row) => row.key)).toEqual(Array.from({ length: SHARDS }, (_, i) => keyOf(i)));
    for (const row of rows) {
      const tables = Object.fromEntries(row.tables.map((t) => [t.name, t.documents]));
      expect({ notes: tables.notes, messages: tables.messages }).toEqual(
        expected(Number(row.key.slice(6))),
      );
    }
  });
});
