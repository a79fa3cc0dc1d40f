import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { exportStream } from "../../src/backups/export.ts";
import { SVC_VERSION } from "../../src/version.ts";

/** What {@link exportWithSlowReader} saw. */
export interface ExportProbe {
  /** Document lines the reader received. */
  lines: number;
  /** Most rows the export had read from SQLite beyond what the reader had received, at any time. */
  maxRowsAhead: number;
  /** Largest chunk the reader received, in bytes. */
  maxChunkBytes: number;
  /** Whether the export gave the shard's lock back, once, at the end. */
  released: number;
}

/**
 * Exports a table of `documents` rows (written straight into a shard's
 * SQLite, in one statement) through the real {@link exportStream}, read by a
 * reader that yields to the event loop after every chunk, and measures how
 * far the export ever ran ahead of it: the rows held in memory at once. The
 * SQLite cursor is only counted as it is iterated (the storage is the real
 * one); a bounded export stays a chunk or two ahead whatever `documents` is.
 */
export function exportWithSlowReader(shardKey: string, documents: number): Promise<ExportProbe> {
  const stub = env.DATA_SHARD.getByName(shardKey);
  return runInDurableObject(stub, async (_instance, state) => {
    const { sql } = state.storage;
    sql.exec(
      'CREATE TABLE "t_bulk" (_id TEXT PRIMARY KEY, _creationTime REAL NOT NULL, _doc TEXT NOT NULL)',
    );
    sql.exec(
      `INSERT INTO "t_bulk" (_id, _creationTime, _doc) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT 'bulk_' || i, 1780000000000 + i, '{"text":"document ' || i || ' of the export probe"}' FROM n`,
      documents,
    );
    let rowsRead = 0;
    const counting: SqlStorage = Object.create(sql, {
      exec: {
        value: <T extends Record<string, SqlStorageValue>>(query: string, ...binds: unknown[]) => {
          const cursor = sql.exec<T>(query, ...binds);
          return (function* () {
            for (const row of cursor) {
              rowsRead += 1;
              yield row;
            }
          })();
        },
      },
    });
    let released = 0;
    const header = {
      format: "svc-backup",
      formatVersion: 1,
      schemaVersion: null,
      svcVersion: SVC_VERSION,
      shardKey,
      createdAt: new Date().toISOString(),
      tables: { bulk: documents },
    } as const;
    const reader = exportStream(counting, header, () => {
      released += 1;
    }).getReader();
    const probe: ExportProbe = { lines: -1, maxRowsAhead: 0, maxChunkBytes: 0, released: 0 };
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const byte of value) if (byte === 0x0a) probe.lines += 1;
      probe.maxChunkBytes = Math.max(probe.maxChunkBytes, value.byteLength);
      probe.maxRowsAhead = Math.max(probe.maxRowsAhead, rowsRead - probe.lines);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    probe.released = released;
    return probe;
  });
}
