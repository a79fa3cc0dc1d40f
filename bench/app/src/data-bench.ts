import { DurableObject } from "cloudflare:workers";

/** Documents as the code before the migration stored them (`{ n, body }`), or as it does now. */
export type DocShape = "old" | "new";

function document(n: number, shape: DocShape): string {
  const body = "x".repeat(100);
  return JSON.stringify(
    shape === "old" ? { n, body } : { n, body, label: `label-${n % 1000}`, migrated: 1 },
  );
}

function fakeId(index: number): string {
  return `docs_${index.toString(36).padStart(26, "0")}`;
}

const SEED_BATCH = 50_000;

/** Writes `count` documents into `t_docs` (as svc lays it out) in transactions of 50,000. */
function seedDocs(
  state: DurableObjectState,
  count: number,
  shape: DocShape,
  withLabelIndex: boolean,
): void {
  const { sql } = state.storage;
  sql.exec(
    'CREATE TABLE IF NOT EXISTS "t_docs" (_id TEXT PRIMARY KEY, _creationTime REAL NOT NULL, _doc TEXT NOT NULL)',
  );
  // svc's shard has this index on every table (by_creation_time); the plain loop walks it too.
  sql.exec('CREATE INDEX IF NOT EXISTS "plain_by_time" ON "t_docs" (_creationTime, _id)');
  if (withLabelIndex) {
    // The schema's by_label index, which every migrated document's new label also updates.
    sql.exec(
      `CREATE INDEX IF NOT EXISTS "plain_by_label" ON "t_docs" (json_extract(_doc, '$.label'), _creationTime, _id)`,
    );
  }
  for (let from = 0; from < count; from += SEED_BATCH) {
    state.storage.transactionSync(() => {
      for (let i = from; i < Math.min(count, from + SEED_BATCH); i++) {
        sql.exec('INSERT INTO "t_docs" VALUES (?, ?, ?)', fakeId(i), 1_000 + i, document(i, shape));
      }
    });
  }
}

/** The shard's data-bench hooks, mixed into the svc shard class by `src/worker.ts`. */
export interface DataBenchHooks {
  /**
   * Stores documents and forgets the shard's migrations and its `by_label`
   * index, as before a deploy of the code that has them.
   */
  seedDocs(count: number, shape: DocShape): void;
  /** Aborts the instance, so the next call starts the new code (and its `applySchema`). */
  restart(): void;
}

/** The hooks over a shard's state. */
export function dataBenchHooks(state: DurableObjectState): DataBenchHooks {
  return {
    seedDocs(count, shape) {
      const { sql } = state.storage;
      for (const { name } of sql
        .exec<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'i_docs__by_label%'",
        )
        .toArray()) {
        sql.exec(`DROP INDEX "${name}"`);
      }
      seedDocs(state, count, shape, false);
      sql.exec("DELETE FROM _svc_migrations");
    },
    restart() {
      state.abort("bench: restart with the new code");
    },
  };
}

/**
 * The hand-written baselines: the same documents in a plain Durable Object,
 * migrated by a plain UPDATE loop (read, parse, change, write back, 500 per
 * transaction) and indexed by a plain `CREATE INDEX`.
 */
export class PlainDocs extends DurableObject {
  /** Old documents get the schema's label index too (the migration's writes maintain it); new ones do not (the index build measures it). */
  seed(count: number, shape: DocShape): void {
    seedDocs(this.ctx, count, shape, shape === "old");
  }

  /** Migrates every document as the svc migration does; answers how many it wrote. */
  updateAll(): number {
    const { sql } = this.ctx.storage;
    let after = -1;
    let written = 0;
    for (;;) {
      const rows = sql
        .exec<{ _id: string; _creationTime: number; _doc: string }>(
          'SELECT _id, _creationTime, _doc FROM "t_docs" WHERE _creationTime > ? ORDER BY _creationTime LIMIT 500',
          after,
        )
        .toArray();
      if (rows.length === 0) return written;
      this.ctx.storage.transactionSync(() => {
        for (const row of rows) {
          const doc = JSON.parse(row._doc) as { n: number };
          const next = { ...doc, label: `label-${doc.n % 1000}`, migrated: 1 };
          sql.exec('UPDATE "t_docs" SET _doc = ? WHERE _id = ?', JSON.stringify(next), row._id);
          written += 1;
        }
      });
      after = (rows.at(-1) as { _creationTime: number })._creationTime;
    }
  }

  /** Builds the index svc builds for `docs.by_label`, in one statement. */
  createIndex(): void {
    this.ctx.storage.sql.exec(
      `CREATE INDEX IF NOT EXISTS "plain_by_label" ON "t_docs" (json_extract(_doc, '$.label'), _creationTime, _id)`,
    );
  }
}

/** The shard class's extra methods the data bench calls. */
type BenchShard = DataBenchHooks & {
  runMigration(name: string, shardKey: string): Promise<unknown>;
  migrationStatus(): Promise<{ name: string; state: string; scanned: number }[]>;
};

/** The bindings the data bench uses. */
export interface DataBenchEnv {
  SHARD: DurableObjectNamespace;
  PLAIN_DOCS: DurableObjectNamespace<PlainDocs>;
}

/** The bench's migration, by its file name. */
export const BENCH_MIGRATION = "2026-11-28-docs-label";

/**
 * `/data-bench/<action>?shard=…&count=…&shape=…` for bench/scenarios/migrations.ts:
 * `seed` / `plain-seed` (documents of a shape), `restart` (abort the shard),
 * `run` (start the migration), `status` (also the first call after a restart:
 * answered once the shard's start, index builds included, is over),
 * `plain-update` and `plain-index` (the baselines, answering when done).
 */
export async function dataBenchRoute(url: URL, env: DataBenchEnv): Promise<Response> {
  const shard = url.searchParams.get("shard") ?? "bench";
  const count = Number(url.searchParams.get("count") ?? 0);
  const shape = (url.searchParams.get("shape") ?? "old") as DocShape;
  const svc = env.SHARD.getByName(shard) as unknown as BenchShard;
  const plain = env.PLAIN_DOCS.getByName(shard);
  switch (url.pathname.slice("/data-bench/".length)) {
    case "seed":
      await svc.seedDocs(count, shape);
      return Response.json({ ok: true });
    case "restart":
      await Promise.resolve(svc.restart()).catch(() => undefined);
      return Response.json({ ok: true });
    case "run":
      return Response.json(await svc.runMigration(BENCH_MIGRATION, shard));
    case "status":
      return Response.json(
        (await svc.migrationStatus()).find((status) => status.name === BENCH_MIGRATION) ?? null,
      );
    case "plain-seed":
      await plain.seed(count, shape);
      return Response.json({ ok: true });
    case "plain-update":
      return Response.json({ written: await plain.updateAll() });
    case "plain-index":
      await plain.createIndex();
      return Response.json({ ok: true });
    default:
      return new Response("unknown data-bench action", { status: 404 });
  }
}
