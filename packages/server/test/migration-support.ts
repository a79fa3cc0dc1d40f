import { env, runInDurableObject } from "cloudflare:test";
import type { MigrationEndpoint, MigrationStatus } from "../src/index.ts";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** A document id of `table` made here (old documents are written around the database API). */
export function oldId(table: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(26));
  return `${table}_${[...bytes].map((byte) => ALPHABET[byte % 36]).join("")}`;
}

/** The shard of `shardKey` (of `SHARD`, or of `namespace`) as the admin routes see it. */
export function shardOf(
  shardKey: string,
  namespace: DurableObjectNamespace = env.SHARD,
): DurableObjectStub & MigrationEndpoint {
  return namespace.getByName(shardKey) as unknown as DurableObjectStub & MigrationEndpoint;
}

/**
 * Stores `docs` in `table` of a shard as the code before the migration did
 * (old shapes, earlier creation times, straight into SQLite), then restarts
 * the shard as a deploy of the new code would: it registers its migrations
 * on that first start, with these documents behind their boundary.
 */
export async function storeOldDocuments(
  shardKey: string,
  table: string,
  docs: readonly Record<string, unknown>[],
  namespace: DurableObjectNamespace = env.SHARD,
): Promise<string[]> {
  const stub = shardOf(shardKey, namespace);
  const ids = await runInDurableObject(stub, (_instance, state) => {
    const { sql } = state.storage;
    sql.exec(
      `CREATE TABLE IF NOT EXISTS "t_${table}" (_id TEXT PRIMARY KEY, _creationTime REAL NOT NULL, _doc TEXT NOT NULL)`,
    );
    const written = state.storage.transactionSync(() =>
      docs.map((doc, index) => {
        const id = oldId(table);
        sql.exec(
          `INSERT INTO "t_${table}" (_id, _creationTime, _doc) VALUES (?, ?, ?)`,
          id,
          1_000_000 + index,
          JSON.stringify(doc),
        );
        return id;
      }),
    );
    // The new code has not started in this shard yet: it has registered nothing.
    sql.exec("DELETE FROM _svc_migrations");
    sql.exec("DELETE FROM _svc_migration_docs");
    return written;
  });
  await forceEviction(shardKey, namespace);
  return ids;
}

/** Aborts a shard's instance at once (a crash, not a graceful eviction); its storage stays. */
export async function forceEviction(
  shardKey: string,
  namespace: DurableObjectNamespace = env.SHARD,
): Promise<void> {
  await runInDurableObject(shardOf(shardKey, namespace), (_instance, state) => state.abort()).catch(
    () => undefined,
  );
}

/** The stored documents of a table, raw (as SQLite holds them), by id. */
export async function storedDocuments(
  shardKey: string,
  table: string,
  namespace: DurableObjectNamespace = env.SHARD,
): Promise<Map<string, Record<string, unknown>>> {
  return runInDurableObject(shardOf(shardKey, namespace), (_instance, state) => {
    const exists = state.storage.sql
      .exec("SELECT 1 FROM sqlite_master WHERE name = ?", `t_${table}`)
      .toArray();
    if (exists.length === 0) return new Map();
    const rows = state.storage.sql
      .exec<{ _id: string; _doc: string }>(`SELECT _id, _doc FROM "t_${table}"`)
      .toArray();
    return new Map(rows.map((row) => [row._id, JSON.parse(row._doc)]));
  });
}

/** A migration's status in one shard. */
export async function statusOf(shardKey: string, name: string): Promise<MigrationStatus> {
  const status = (await shardOf(shardKey).migrationStatus()).find((entry) => entry.name === name);
  if (status === undefined) throw new Error(`shard ${shardKey} does not know ${name}`);
  return status;
}

/** Polls until the migration leaves `running` (done or stopped), or fails after `timeoutMs`. */
export async function settled(
  shardKey: string,
  name: string,
  timeoutMs = 30_000,
): Promise<MigrationStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await statusOf(shardKey, name);
    if (status.state !== "running") return status;
    if (Date.now() > deadline)
      throw new Error(`${name} still running in ${shardKey}: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
