import { expect } from "vitest";
import type { MigrationStatus } from "../src/index.ts";
import {
  forceEviction,
  shardOf,
  statusOf,
  storedDocuments,
  storeOldDocuments,
} from "./migration-support.ts";
import { rpc } from "./rpc.ts";

/** The fixture migration this drives (fixture/migrations.ts). */
export const ITEMS = "2026-01-01-items";

type Item = { _id: string; n: number; label: string; migrated: number };

/**
 * Migrates `docsPerShard` old `items` in each shard while a read/write load
 * runs against every shard (inserts, patches of old documents the runner may
 * not have reached yet, paged reads, index reads), force-evicts the first
 * shard once a quarter of it is done, and checks every promise of an online
 * migration: the dry run counted exactly the documents that changed, no call
 * answered 5xx (every one 200), every old document was migrated exactly once
 * (its `migrated` count is 1), every insert and patch acknowledged during
 * the run is stored.
 */
export async function migrateUnderLoad(
  shards: readonly string[],
  docsPerShard: number,
): Promise<{
  rounds: number;
  calls: number;
  statuses: MigrationStatus[];
}> {
  const oldIds = new Map<string, string[]>();
  for (const shardKey of shards) {
    const docs = Array.from({ length: docsPerShard }, (_, i) => ({ n: 10_000 + i }));
    oldIds.set(shardKey, await storeOldDocuments(shardKey, "items", docs));
  }
  const dryRuns = await Promise.all(
    shards.map((shardKey) => shardOf(shardKey).dryRunMigration(ITEMS, shardKey, 1)),
  );
  for (const dry of dryRuns) {
    expect(dry).toMatchObject({
      ok: true,
      value: { scanned: docsPerShard, wouldChange: docsPerShard, failed: 0 },
    });
  }

  for (const shardKey of shards) await shardOf(shardKey).runMigration(ITEMS, shardKey);
  const statuses: number[] = [];
  const inserted = new Map<string, string[]>(shards.map((key) => [key, []]));
  const relabelled = new Map<string, Map<string, string>>(shards.map((key) => [key, new Map()]));
  const first = shards[0] as string;
  let evicted = false;
  let round = 0;
  const running = async () =>
    (await Promise.all(shards.map((key) => statusOf(key, ITEMS)))).some(
      (status) => status.state === "running",
    );
  while (await running()) {
    round += 1;
    await Promise.all(
      shards.map(async (shardKey, index) => {
        const ids = oldIds.get(shardKey) as string[];
        const target = ids[(round * 7_919 + index * 104_729) % ids.length] as string;
        const label = `relabelled-${round}`;
        const [add, relabel, page] = await Promise.all([
          rpc("items:add", { n: round, label: `fresh-${round}` }, { shardKey }),
          rpc("items:relabel", { id: target, label }, { shardKey }),
          rpc("items:page", { cursor: null, numItems: 20 }, { shardKey }),
        ]);
        // Read back what this round inserted, through the index the migration leaves alone.
        const byLabel = await rpc("items:byLabel", { label: `fresh-${round}` }, { shardKey });
        for (const response of [add, relabel, page, byLabel]) statuses.push(response.status);
        if (add.status === 200) {
          inserted.get(shardKey)?.push(((await add.json()) as { value: string }).value);
        }
        if (relabel.status === 200) {
          const after = ((await relabel.json()) as { value: Item }).value;
          // The handler saw the migrated shape, even when the runner had not reached the document.
          expect(after.migrated).toBe(1);
          relabelled.get(shardKey)?.set(target, label);
        }
        const pageBody = (await page.json()) as { value: { page: Item[] } };
        for (const doc of pageBody.value.page) expect(doc.migrated).toBeTypeOf("number");
        const found = (await byLabel.json()) as { value: Item[] };
        expect(found.value.map((doc) => doc.n)).toEqual([round]);
      }),
    );
    if (!evicted && (await statusOf(first, ITEMS)).scanned >= docsPerShard / 4) {
      evicted = true;
      await forceEviction(first);
      // After a crash the alarm is retried; the next run request re-arms it at once.
      await shardOf(first).runMigration(ITEMS, first);
    }
  }
  expect(evicted).toBe(true);
  expect(statuses.filter((status) => status >= 500)).toEqual([]);
  expect(statuses.every((status) => status === 200)).toBe(true);
  const finals: MigrationStatus[] = [];
  for (const shardKey of shards) {
    const status = await statusOf(shardKey, ITEMS);
    finals.push(status);
    expect(status).toMatchObject({ state: "done", scanned: docsPerShard, failed: 0, error: null });
    expect(status.changed + status.writtenByApp).toBe(docsPerShard);
    const stored = await storedDocuments(shardKey, "items");
    const notOnce = (oldIds.get(shardKey) as string[]).filter(
      (id) => stored.get(id)?.migrated !== 1,
    );
    expect(notOnce).toEqual([]);
    for (const [id, label] of relabelled.get(shardKey) as Map<string, string>) {
      expect(stored.get(id)?.label).toBe(label);
    }
    for (const id of inserted.get(shardKey) as string[]) {
      expect(stored.get(id)).toMatchObject({ migrated: 0 });
    }
    expect(stored.size).toBe(docsPerShard + (inserted.get(shardKey) as string[]).length);
  }
  return { rounds: round, calls: statuses.length, statuses: finals };
}
