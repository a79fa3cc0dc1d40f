import type { ShardReport } from "./report.ts";

/** One shard as the registry knows it; the shape the admin API answers. */
export interface ShardEntry {
  key: string;
  /** ISO-8601: when the shard first ran (or its oldest document, for data older than the registry). */
  createdAt: string;
  /** ISO-8601: the last committed write reported, or `null` when none was seen. */
  lastWriteAt: string | null;
  /** ISO-8601: when the shard last reported (at most one report per interval after a write). */
  reportedAt: string;
  /** Documents in all its tables. */
  documents: number;
  /** Documents per table, by table name. */
  tables: { name: string; documents: number }[];
  /** Size of the shard's SQLite database in bytes. */
  sizeBytes: number;
  /** The schema version the shard applied (`_svc_meta.schema_version`), or `null`. */
  schemaVersion: string | null;
}

/** A page of one partition, ordered by key. */
export interface DirectoryPage {
  entries: ShardEntry[];
  /** Whether the partition has more matching rows after the last one. */
  more: boolean;
}

interface Row extends Record<string, SqlStorageValue> {
  key: string;
  created_at: number;
  last_write_at: number | null;
  reported_at: number;
  documents: number;
  tables: string;
  size_bytes: number;
  schema_version: string | null;
}

const COLUMNS =
  "key, created_at, last_write_at, reported_at, documents, tables, size_bytes, schema_version";

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function toEntry(row: Row): ShardEntry {
  const tables = JSON.parse(row.tables) as Record<string, number>;
  return {
    key: row.key,
    createdAt: new Date(row.created_at).toISOString(),
    lastWriteAt: iso(row.last_write_at),
    reportedAt: new Date(row.reported_at).toISOString(),
    documents: row.documents,
    tables: Object.entries(tables).map(([name, documents]) => ({ name, documents })),
    sizeBytes: row.size_bytes,
    schemaVersion: row.schema_version,
  };
}

/**
 * One partition of the shard registry: the rows of the shards whose key
 * hashes to it, in its own SQLite (`_svc_registry`). Deleting a shard's data
 * leaves a tombstone, so a report that was already on its way when the data
 * went (its `createdAt` is older than the deletion) cannot bring the row back.
 */
export class RegistryDirectory {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
    sql.exec(
      "CREATE TABLE IF NOT EXISTS _svc_registry (key TEXT PRIMARY KEY, created_at REAL NOT NULL, " +
        "last_write_at REAL, reported_at REAL NOT NULL, documents INTEGER NOT NULL, tables TEXT NOT NULL, " +
        "size_bytes INTEGER NOT NULL, schema_version TEXT)",
    );
    sql.exec(
      "CREATE TABLE IF NOT EXISTS _svc_registry_deleted (key TEXT PRIMARY KEY, deleted_at REAL NOT NULL)",
    );
  }

  /** Records a shard's report (one upsert); a report from before its deletion is dropped. */
  put(report: ShardReport): void {
    const tombstone = this.#sql
      .exec<{ deleted_at: number }>(
        "SELECT deleted_at FROM _svc_registry_deleted WHERE key = ?",
        report.key,
      )
      .toArray()[0];
    if (tombstone !== undefined) {
      if (report.createdAt <= tombstone.deleted_at) return;
      this.#sql.exec("DELETE FROM _svc_registry_deleted WHERE key = ?", report.key);
    }
    const documents = Object.values(report.tables).reduce((sum, rows) => sum + rows, 0);
    this.#sql.exec(
      `INSERT INTO _svc_registry (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET ` +
        "created_at = min(created_at, excluded.created_at), " +
        "last_write_at = coalesce(excluded.last_write_at, last_write_at), " +
        "reported_at = excluded.reported_at, documents = excluded.documents, tables = excluded.tables, " +
        "size_bytes = excluded.size_bytes, schema_version = excluded.schema_version",
      report.key,
      report.createdAt,
      report.lastWriteAt,
      Date.now(),
      documents,
      JSON.stringify(report.tables),
      report.sizeBytes,
      report.schemaVersion,
    );
  }

  /** The row of one shard, or `null`. */
  get(key: string): ShardEntry | null {
    const row = this.#sql
      .exec<Row>(`SELECT ${COLUMNS} FROM _svc_registry WHERE key = ?`, key)
      .toArray()[0];
    return row === undefined ? null : toEntry(row);
  }

  /**
   * Rows with keys after `after` (byte order of their UTF-8), optionally only
   * keys containing `search` (ASCII case-insensitive), at most `limit`.
   */
  list(options: { after: string; search: string | null; limit: number }): DirectoryPage {
    const filter = options.search === null ? "" : " AND instr(lower(key), lower(?)) > 0";
    const binds: SqlStorageValue[] = [options.after];
    if (options.search !== null) binds.push(options.search);
    const rows = this.#sql
      .exec<Row>(
        `SELECT ${COLUMNS} FROM _svc_registry WHERE key > ?${filter} ORDER BY key LIMIT ?`,
        ...binds,
        options.limit + 1,
      )
      .toArray();
    return {
      entries: rows.slice(0, options.limit).map(toEntry),
      more: rows.length > options.limit,
    };
  }

  /** Removes a shard's row and leaves its tombstone; answers whether a row was there. */
  remove(key: string, deletedAt: number): boolean {
    const removed = this.#sql.exec("DELETE FROM _svc_registry WHERE key = ?", key).rowsWritten > 0;
    this.#sql.exec(
      "INSERT INTO _svc_registry_deleted (key, deleted_at) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET deleted_at = excluded.deleted_at",
      key,
      deletedAt,
    );
    return removed;
  }
}
