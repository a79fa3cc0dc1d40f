import type { StoredRow } from "./storage.ts";

type Doc = Record<string, unknown> & { _id: string; _creationTime: number };

/** A stored row as a handler sees it, and the migrations applied on the way. */
export interface PresentedDocument {
  doc: Doc;
  /** Migrations applied in memory because their runner has not reached this row yet. */
  pending: readonly string[];
}

/**
 * How `ctx.db` turns stored rows into the documents handlers see. The
 * shard's migrations provide it: while a migration runs, a row it has not
 * reached yet is migrated in memory on every read, so handlers only ever see
 * documents that match the schema. Declared here, beside the database, so
 * the database depends on this small interface and not on migrations.
 */
export interface DocumentView {
  /**
   * The document for a row of `table`; `null` when it cannot be shown (its
   * migration throws or answers an invalid or deleted document). Synchronous
   * for a table with no migration in progress.
   */
  present(
    table: string,
    row: StoredRow,
    shardKey: string,
  ): PresentedDocument | null | Promise<PresentedDocument | null>;
  /**
   * Called in the writing transaction after the app rewrote a row it loaded
   * with `pending` migrations: the document is now in its new shape, and the
   * runner must leave it alone.
   */
  wrote(table: string, id: string, pending: readonly string[]): void;
}
