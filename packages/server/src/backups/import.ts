import { countDocuments } from "../db/count-documents.ts";
import { tableExists } from "../durable/table-exists.ts";
import { SvcError } from "../errors/svc-error.ts";
import type { SchemaDefinition } from "../schema/define.ts";
import { type BackupHeader, lineError, parseDocumentLine, parseHeader } from "./format.ts";
import type { NumberedLine } from "./lines.ts";
import type { SystemTableBackup } from "./system-tables.ts";

const STAGING_PREFIX = "_svc_import_";

/** Rows of one of svc's own tables, `0` where the shard never created it. */
function countRows(sql: SqlStorage, table: string): number {
  if (!tableExists(sql, table)) return 0;
  return sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM "${table}"`).one().n;
}

/** What an import restored. */
export interface ImportResult {
  documents: number;
  tables: Record<string, number>;
  header: BackupHeader;
}

interface ActiveImport {
  id: string;
  header: BackupHeader | undefined;
  staged: Map<string, number>;
}

/**
 * Restores a backup into an empty shard, all or nothing. Lines are checked
 * and written into staging tables (`_svc_import_<table>`, invisible to the
 * app) as they arrive, in as many steps as the caller likes; `commit` then
 * checks the shard is still empty and that every table holds exactly the
 * documents the header counts, and moves the rows in one transaction. Any
 * bad line, a count that does not match, or an abandoned import leaves the
 * shard exactly as it was (staging tables are dropped on error and before
 * the next import).
 *
 * One import runs at a time per shard; a new `begin` ends an older one.
 */
export class ShardImport {
  readonly #storage: DurableObjectStorage;
  readonly #schema: SchemaDefinition;
  readonly #systemTables: readonly SystemTableBackup[];
  readonly #ownTables: readonly string[];
  #active: ActiveImport | undefined;

  /**
   * `systemTables`: svc's own tables a backup may carry (each restored
   * through its {@link SystemTableBackup}); `ownTables`: svc's other tables a
   * restore writes into (the files' metadata). A shard is empty only when
   * all of them hold no row, as its documents' tables.
   */
  constructor(
    storage: DurableObjectStorage,
    schema: SchemaDefinition,
    systemTables: readonly SystemTableBackup[] = [],
    ownTables: readonly string[] = [],
  ) {
    this.#storage = storage;
    this.#schema = schema;
    this.#systemTables = systemTables;
    this.#ownTables = ownTables;
  }

  /** Starts an import: `CONFLICT` unless the shard is empty. Answers the import's id. */
  begin(shardKey: string): string {
    this.#dropStaging();
    this.#refuseNonEmpty(shardKey);
    const id = crypto.randomUUID();
    this.#active = { id, header: undefined, staged: new Map() };
    return id;
  }

  /** Checks and stages lines (line 1 is the header); a bad line ends the import. */
  add(id: string, lines: readonly NumberedLine[]): void {
    const active = this.#current(id);
    const { sql } = this.#storage;
    try {
      for (const line of lines) {
        if (active.header === undefined) {
          if (line.number !== 1) throw lineError(line.number, "the backup header must come first");
          active.header = parseHeader(line.text);
          continue;
        }
        const doc = parseDocumentLine(line.text, line.number, this.#schema, this.#systemTables);
        if (!active.staged.has(doc.table)) {
          sql.exec(
            `CREATE TABLE IF NOT EXISTS "${STAGING_PREFIX}${doc.table}" (_id TEXT PRIMARY KEY, _creationTime REAL NOT NULL, _doc TEXT NOT NULL)`,
          );
          active.staged.set(doc.table, 0);
        }
        const written = sql.exec(
          `INSERT INTO "${STAGING_PREFIX}${doc.table}" (_id, _creationTime, _doc) VALUES (?, ?, ?) ON CONFLICT(_id) DO NOTHING`,
          doc.id,
          doc.creationTime,
          doc.json,
        ).rowsWritten;
        if (written === 0) {
          throw lineError(line.number, `_id ${doc.id} appears twice in the backup`);
        }
        active.staged.set(doc.table, active.staged.get(doc.table)! + 1);
      }
    } catch (error) {
      this.abort(id);
      throw error;
    }
  }

  /**
   * Moves the staged documents into the shard in one transaction, after
   * checking the shard is still empty and the header's counts match.
   * `within` runs inside that transaction (the files' metadata).
   */
  commit(id: string, shardKey: string, within?: (sql: SqlStorage) => void): ImportResult {
    const active = this.#current(id);
    try {
      const header = active.header;
      if (header === undefined) throw lineError(1, "the backup is empty (no header line)");
      for (const table of new Set([...Object.keys(header.tables), ...active.staged.keys()])) {
        const expected = header.tables[table] ?? 0;
        const found = active.staged.get(table) ?? 0;
        if (expected !== found) {
          throw new SvcError(
            "BAD_REQUEST",
            `The backup is incomplete or altered: its header counts ${expected} documents in ${table}, the file holds ${found}. Nothing was imported.`,
          );
        }
      }
      const { sql } = this.#storage;
      this.#storage.transactionSync(() => {
        this.#refuseNonEmpty(shardKey);
        for (const table of active.staged.keys()) {
          const system = this.#systemTables.find((candidate) => candidate.table === table);
          if (system !== undefined) system.restore(sql, `${STAGING_PREFIX}${table}`);
          else
            sql.exec(
              `INSERT INTO "t_${table}" (_id, _creationTime, _doc) SELECT _id, _creationTime, _doc FROM "${STAGING_PREFIX}${table}" ORDER BY rowid`,
            );
        }
        within?.(sql);
      });
      const tables = Object.fromEntries(active.staged);
      // svc's own rows (pending jobs) are not documents.
      const documents = Object.entries(tables)
        .filter(([table]) => !this.#systemTables.some((system) => system.table === table))
        .reduce((sum, [, n]) => sum + n, 0);
      return { documents, tables, header };
    } finally {
      this.abort(id);
    }
  }

  /** Ends an import and drops what it staged. */
  abort(id: string): void {
    if (this.#active?.id !== id) return;
    this.#active = undefined;
    this.#dropStaging();
  }

  /** Forgets the running import without touching storage (after the shard's data was deleted). */
  reset(): void {
    this.#active = undefined;
  }

  #current(id: string): ActiveImport {
    if (this.#active?.id !== id) {
      throw new SvcError(
        "CONFLICT",
        "This import is no longer running (another import started, or the shard restarted). Nothing was imported; start again.",
      );
    }
    return this.#active;
  }

  /**
   * Refuses a shard with documents, or with rows in svc's tables a restore
   * writes into: restored files would overwrite a live file's row (and an
   * abandoned restore remove its bytes), restored jobs would mix with its
   * own, any of them finished included (a restored id may be one of them).
   */
  #refuseNonEmpty(shardKey: string): void {
    const { sql } = this.#storage;
    let documents = 0;
    for (const table of Object.keys(this.#schema.tables)) {
      documents += countDocuments(sql, table);
    }
    const held = [`${documents} documents`];
    let rows = documents;
    for (const table of [...this.#systemTables.map((system) => system.table), ...this.#ownTables]) {
      const n = countRows(sql, table);
      if (n > 0) held.push(`${n} in ${table}`);
      rows += n;
    }
    if (rows > 0) {
      throw new SvcError(
        "CONFLICT",
        `Shard ${JSON.stringify(shardKey)} is not empty (${held.join(", ")}): import only into an empty shard (delete its data first, or import under a new key).`,
      );
    }
  }

  #dropStaging(): void {
    const { sql } = this.#storage;
    const staging = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '\\_svc\\_import\\_%' ESCAPE '\\'",
      )
      .toArray();
    for (const { name } of staging) sql.exec(`DROP TABLE "${name}"`);
  }
}
