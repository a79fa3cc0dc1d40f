import { SvcError } from "../errors/svc-error.ts";
import { toJsonValue } from "../values/json-codec.ts";
import { isOneStatement } from "./one-statement.ts";
import { pragmaSetsValue } from "./pragma-value.ts";
import type { SqlPage, SqlQuery } from "./shard-protocol.ts";

/** What the console needs of the shard's storage. */
export interface SqlConsoleStorage {
  sql: SqlStorage;
  transactionSync<T>(work: () => T): T;
}

/** Most characters of values (as JSON) one page holds: a row cap of wide rows stays small. */
const MAX_PAGE_CHARS = 1_048_576;

/** The columns SQLite answers `EXPLAIN` with: anything else means the text held more than one statement. */
const EXPLAIN_COLUMNS = "addr,opcode,p1,p2,p3,p4,p5,comment";

/** Opcodes of a program that changes the database besides a write transaction's (SQLite's own list). */
const WRITE_OPCODES = new Set(["Vacuum", "JournalMode", "VUpdate", "CreateBtree", "Destroy"]);

const ROLLBACK = Symbol("rollback");

/** Runs `work` in a transaction that is always rolled back, and answers its value. */
function rolledBack<T>(storage: SqlConsoleStorage, work: () => T): T {
  let value: { of: T } | undefined;
  try {
    storage.transactionSync(() => {
      value = { of: work() };
      throw ROLLBACK;
    });
  } catch (thrown) {
    if (thrown !== ROLLBACK) throw thrown;
  }
  return value!.of;
}

/** SQLite's refusals (syntax, unknown table, not authorized) as the operator's mistake, never a 500. */
function refusedBySqlite<T>(work: () => T): T {
  try {
    return work();
  } catch (thrown) {
    if (thrown instanceof SvcError) throw thrown;
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    throw new SvcError("BAD_REQUEST", `SQLite refused the statement: ${message}`);
  }
}

/**
 * Whether SQLite compiles the statement to a program that writes: a write
 * transaction, or an opcode that changes the file. SQLite decides, from its
 * own compiled program (`EXPLAIN`), as `sqlite3_stmt_readonly` does; the text
 * is never parsed here. The `EXPLAIN` runs in a rolled-back transaction: in a
 * text of several statements the others would run, and nothing they do may stay.
 */
function compiledToWrite(storage: SqlConsoleStorage, query: SqlQuery): boolean {
  const program = rolledBack(storage, () => {
    const cursor = storage.sql.exec(`EXPLAIN ${query.sql}`, ...query.params);
    // Read to the end first: a statement still in progress cannot be rolled back past.
    const steps = cursor.toArray();
    return cursor.columnNames.join(",") === EXPLAIN_COLUMNS ? steps : null;
  });
  if (program === null) {
    throw new SvcError("BAD_REQUEST", "One statement at a time: the text holds more than one.");
  }
  return program.some(
    (step) =>
      (step.opcode === "Transaction" && Number(step.p2) !== 0) ||
      WRITE_OPCODES.has(String(step.opcode)),
  );
}

/**
 * Reads one page of a cursor: rows after `offset`, up to `limit` rows or the
 * page's size. A write's remaining rows are read and dropped: its
 * transaction cannot commit while the statement is in progress.
 */
function pageOf(
  cursor: SqlStorageCursor<Record<string, SqlStorageValue>>,
  query: SqlQuery,
): Omit<SqlPage, "readOnly"> {
  const rows: unknown[][] = [];
  let skipped = 0;
  let chars = 0;
  let stoppedBy: SqlPage["stoppedBy"] = null;
  const iterator = cursor.raw();
  for (const raw of iterator) {
    if (skipped < query.offset) {
      skipped++;
      continue;
    }
    if (rows.length === query.limit || chars > MAX_PAGE_CHARS) {
      stoppedBy = rows.length === query.limit ? "rows" : "size";
      if (query.write) for (const _ of iterator);
      break;
    }
    const values = raw.map((value) =>
      value instanceof ArrayBuffer ? toJsonValue(new Uint8Array(value)) : value,
    );
    chars += JSON.stringify(values).length;
    rows.push(values);
  }
  return {
    columns: cursor.columnNames,
    rows,
    rowsRead: cursor.rowsRead,
    rowsWritten: cursor.rowsWritten,
    nextOffset: stoppedBy === null ? null : query.offset + rows.length,
    stoppedBy,
  };
}

/**
 * The shard's SQL console: one statement over the shard's own SQLite, one
 * page of its rows (a text of several statements is refused before anything runs). Read-only unless `write`: SQLite's compiled program
 * decides whether a statement writes, and a read runs in a transaction that
 * is always rolled back, so a refused or sneaking write changes nothing.
 * A write runs in one transaction that commits, outside svc's document
 * layer (no validators, RLS or subscriptions): the operator's escape hatch.
 * Pages stop at `limit` rows or 1 MiB of values; SQLite streams rows, so the
 * first page of a million-row table costs what its rows do.
 *
 * @example
 * ```ts
 * runSql(ctx.storage, { sql: "SELECT count(*) FROM messages", params: [], write: false, offset: 0, limit: 100 });
 * ```
 */
export function runSql(storage: SqlConsoleStorage, query: SqlQuery): SqlPage {
  if (!isOneStatement(query.sql)) {
    throw new SvcError("BAD_REQUEST", "One statement at a time: the text holds more than one.");
  }
  if (!query.write && pragmaSetsValue(query.sql)) {
    throw new SvcError(
      "FORBIDDEN",
      "This PRAGMA sets a value, which SQLite applies as it compiles it; run it in write mode.",
    );
  }
  return refusedBySqlite(() => {
    const writes = compiledToWrite(storage, query);
    if (writes && !query.write) {
      throw new SvcError(
        "FORBIDDEN",
        "This statement writes (SQLite compiled it to a write); run it in write mode.",
      );
    }
    const run = () => pageOf(storage.sql.exec(query.sql, ...query.params), query);
    if (query.write) return { ...storage.transactionSync(run), readOnly: false };
    const page = rolledBack(storage, run);
    if (page.rowsWritten > 0) {
      throw new SvcError("FORBIDDEN", "This statement wrote rows; run it in write mode.");
    }
    return { ...page, readOnly: true };
  });
}
