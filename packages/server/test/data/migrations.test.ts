import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DataAuditEntry } from "../../src/index.ts";
import { shardOf, storedDocuments, storeOldDocuments } from "../migration-support.ts";
import { DATA, dataAdmin, dataJson, eventually, registryRow } from "./admin.ts";

const ITEMS = "2026-01-01-items";
const KEYS = ["migapi-a", "migapi-b", "migapi-c"];
const DOCS = 30;
/** In migapi-c the sixth document is n = 13, on which the migration throws (it stops there). */
const STOPPER = 5;

type Counts = Record<
  "scanned" | "changed" | "deleted" | "unchanged" | "writtenByApp" | "failed",
  number
>;
type Summary = {
  name: string;
  table: string;
  shards: Record<"registered" | "running" | "stopped" | "done" | "withFailures", number>;
  documents: Counts;
  failedDocuments: { shard: string; id: string; message: string }[];
};
type StatusAnswer = {
  migrations: Summary[];
  shards: number;
  unreachable: unknown[];
  byShard: { key: string; status: { name: string; state: string } & Counts }[];
  nextCursor: string | null;
};
type RunAnswer = {
  name: string;
  dryRun: boolean;
  shards: {
    key: string;
    error: { code: string; message: string } | null;
    status: ({ name: string; state: string } & Counts) | null;
    report:
      | ({ wouldChange: number; wouldDelete: number; errors: { id: string; message: string }[] } & {
          scanned: number;
          failed: number;
          samples: { id: string; before: unknown; after: unknown }[];
        })
      | null;
  }[];
  nextCursor: string | null;
};

const itemsOf = (answer: StatusAnswer) => answer.migrations.find((entry) => entry.name === ITEMS);

describe("the migrations admin API", () => {
  it("dry-runs exactly, runs in every registry shard, shows progress, names the failing document, audits", async () => {
    const ids = new Map<string, string[]>();
    for (const key of KEYS) {
      const docs = Array.from({ length: DOCS }, (_, i) => ({
        n: key === "migapi-c" && i === STOPPER ? 13 : 100 + i,
      }));
      ids.set(key, await storeOldDocuments(key, "items", docs, env.DATA_SHARD));
      // The new code starts: the shard registers its migrations and reports to the registry.
      await shardOf(key, env.DATA_SHARD).migrationStatus();
    }
    await Promise.all(KEYS.map((key) => registryRow(key, DOCS)));
    const stopper = ids.get("migapi-c")?.[STOPPER] as string;

    const before = await dataJson<StatusAnswer>("GET", "migrations?search=migapi-", 200);
    expect(before.shards).toBe(3);
    expect(itemsOf(before)).toMatchObject({
      table: "items",
      shards: { registered: 3, running: 0, stopped: 0, done: 0, withFailures: 0 },
      documents: { scanned: 0, changed: 0 },
    });

    const dry = await dataJson<RunAnswer>(
      "POST",
      `migrations/${ITEMS}/run?dryRun=true&samples=2&search=migapi-`,
      200,
    );
    expect(dry.shards.map((shard) => shard.key)).toEqual(KEYS);
    for (const shard of dry.shards.slice(0, 2)) {
      expect(shard.report).toMatchObject({ scanned: DOCS, wouldChange: DOCS, failed: 0 });
      // Before and after, in the JSON encoding, system fields kept.
      const first = ids.get(shard.key) as string[];
      expect(shard.report?.samples).toEqual(
        [0, 1].map((i) => ({
          id: first[i],
          before: { _id: first[i], _creationTime: 1_000_000 + i, n: 100 + i },
          after: {
            _id: first[i],
            _creationTime: 1_000_000 + i,
            n: 100 + i,
            label: "none",
            migrated: 1,
          },
        })),
      );
    }
    expect(dry.shards[2]?.report).toMatchObject({
      scanned: DOCS,
      wouldChange: DOCS - 1,
      failed: 1,
      errors: [{ id: stopper, message: "13 is unlucky" }],
    });
    // A dry run writes nothing.
    expect(
      (await storedDocuments("migapi-a", "items", env.DATA_SHARD)).get(
        ids.get("migapi-a")?.[0] as string,
      ),
    ).toEqual({ n: 100 });

    const run = await dataJson<RunAnswer>("POST", `migrations/${ITEMS}/run?search=migapi-`, 200);
    expect(run.shards.map((shard) => [shard.key, shard.error, shard.status?.name])).toEqual(
      KEYS.map((key) => [key, null, ITEMS]),
    );

    const after = await eventually(async () => {
      const answer = await dataJson<StatusAnswer>("GET", "migrations?search=migapi-", 200);
      return itemsOf(answer)?.shards.running === 0 ? answer : undefined;
    }, "the migration to settle in every shard");
    expect(itemsOf(after)).toMatchObject({
      shards: { registered: 0, running: 0, stopped: 1, done: 2, withFailures: 1 },
      documents: { scanned: 2 * DOCS + STOPPER, changed: 2 * DOCS + STOPPER },
      failedDocuments: [{ shard: "migapi-c", id: stopper, message: "13 is unlucky" }],
    });
    expect(after.byShard).toEqual([]);
    // Named, the answer also gives the migration's record in each shard: the progress per shard.
    const perShard = await dataJson<StatusAnswer>(
      "GET",
      `migrations?search=migapi-&name=${ITEMS}`,
      200,
    );
    expect(
      perShard.byShard.map(({ key, status }) => [key, status.name, status.state, status.changed]),
    ).toEqual([
      ["migapi-a", ITEMS, "done", DOCS],
      ["migapi-b", ITEMS, "done", DOCS],
      ["migapi-c", ITEMS, "stopped", STOPPER],
    ]);
    expect(perShard.migrations).toEqual(after.migrations);
    const migrated = await storedDocuments("migapi-b", "items", env.DATA_SHARD);
    expect([...migrated.values()].every((doc) => doc.migrated === 1)).toBe(true);

    const response = await exports.default.fetch("http://svc.test/__test/audit", { headers: DATA });
    const audit = (await response.json()) as DataAuditEntry[];
    expect(audit.filter((entry) => entry.action === "migration.run")).toEqual([
      {
        operator: "alice",
        action: "migration.run",
        targetType: "migration",
        targetId: ITEMS,
        outcome: "ok",
        detail: "dry run over 3 shards: 89 would change, 0 would be deleted, 1 would fail",
      },
      {
        operator: "alice",
        action: "migration.run",
        targetType: "migration",
        targetId: ITEMS,
        outcome: "ok",
        detail: "started in 3 of 3 shards",
      },
    ]);
  });

  it("refuses an unknown migration and bad parameters, and records the refusal", async () => {
    const unknown = await dataAdmin("POST", "migrations/2099-nothing/run?search=migapi-");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      code: "NOT_FOUND",
      detail: 'No migration named "2099-nothing".',
    });
    const bad = await dataAdmin("POST", `migrations/${ITEMS}/run?dryRun=yes&limit=0`);
    expect(bad.status).toBe(400);
    const problem = (await bad.json()) as { errors: { path: string }[] };
    expect(problem.errors.map((error) => error.path).sort()).toEqual([
      "query.dryRun",
      "query.limit",
    ]);
    const get = await dataAdmin("GET", "migrations?limit=5000");
    expect(get.status).toBe(400);
  });
});
