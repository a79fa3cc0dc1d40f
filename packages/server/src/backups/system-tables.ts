/** One row of a table as a backup line carries it: its id, its creation time and its fields as JSON. */
export interface BackupRow extends Record<string, SqlStorageValue> {
  rowid: number;
  _id: string;
  _creationTime: number;
  _doc: string;
}

/**
 * How one of svc's own tables (`_svc…`, beside the app's documents in the
 * shard) travels in a backup: its rows become document lines of `table`
 * (counted in the header like any table), each checked on restore and
 * written back in the restore's transaction. The feature that owns the
 * table implements it (the scheduler's pending jobs: scheduler/backup.ts);
 * the shard hands the list to exports and imports.
 *
 * @example
 * ```ts
 * new ShardImport(storage, schema, [scheduledJobsBackup]);
 * ```
 */
export interface SystemTableBackup {
  /** The table's name, as the lines and the header name it. */
  readonly table: string;
  /** How many rows a backup taken now carries (the header's count). */
  count(sql: SqlStorage): number;
  /** Up to `limit` of those rows after `afterRowid`, in rowid order. */
  rows(sql: SqlStorage, afterRowid: number, limit: number): Iterable<BackupRow>;
  /** Checks a line's `doc`, throwing a message for a bad one; answers it as `_doc` to stage. */
  check(doc: Record<string, unknown>): string;
  /** Moves the staged rows (`_id`, `_creationTime`, `_doc` of table `staging`) into the table. */
  restore(sql: SqlStorage, staging: string): void;
}
