import { SvcError } from "../errors/svc-error.ts";
import { validationFailed } from "../errors/validation-failed.ts";
import type { PolicyCtx } from "../model/policy-ctx.ts";
import type { AnyTableDefinition, SchemaDefinition } from "../schema/define.ts";
import { compileRule, evaluateRule, isRule } from "../schema/rule.ts";
import { newId, tableOfId } from "../values/ids.ts";
import { setOwn } from "../values/own-property.ts";
import { type Issue, ROOT_PATH, toValidationIssues } from "../values/validator.ts";
import type { DocumentView, PresentedDocument } from "./document-view.ts";
import { TableQuery } from "./query.ts";
import { documentToJson, rowToDocument, type StoredRow, sqlTable } from "./storage.ts";
import type { DatabaseReader, DatabaseWriter } from "./types.ts";

type Doc = Record<string, unknown> & { _id: string; _creationTime: number };

/** How a database handle behaves for one procedure call. */
export interface DatabaseOptions {
  sql: SqlStorage;
  schema: SchemaDefinition;
  /** The caller, as RLS policies see it. */
  policyCtx: PolicyCtx;
  /** `false` only for internal procedures that called `.bypassRls()`. */
  enforceRls: boolean;
  /** Creation time of a new document (strictly increasing within a shard). */
  now: () => number;
  /** Records which tables this handle reads and writes (subscriptions' read sets, commits' write sets). */
  access?: TableAccess;
  /** Presents stored rows (migrated in memory while a migration runs). Default: as stored. */
  view?: DocumentView;
}

/** One document a write touched: what the data studio reports a run wrote. */
export interface WrittenDocument {
  table: string;
  id: string;
  op: "insert" | "update" | "delete";
}

/** The tables a call read and wrote; what decides which subscriptions a commit re-runs. */
export interface TableAccess {
  readonly reads: Set<string>;
  readonly writes: Set<string>;
  /** Every document written, in order (a document written twice appears twice). */
  readonly documents: WrittenDocument[];
}

/** An empty {@link TableAccess}. */
export function tableAccess(): TableAccess {
  return { reads: new Set(), writes: new Set(), documents: [] };
}

const SYSTEM_FIELDS = ["_id", "_creationTime"];
const NO_PENDING: readonly string[] = Object.freeze([]);

/** A stored document as handlers see it. */
type Loaded = { table: string; doc: Doc; pending: readonly string[] };

/**
 * `ctx.db`: documents in the shard's SQLite storage, validated against the
 * schema on every write and filtered by RLS on every read.
 *
 * @example
 * ```ts
 * const db = createDatabase({ sql, schema, policyCtx, enforceRls: true, now });
 * const message = await db.get(id); // null when missing or hidden by RLS
 * ```
 */
export function createDatabase(options: DatabaseOptions): DatabaseWriter {
  const documents = new Documents(options);
  const writer = readerOf(documents) as unknown as Record<string, unknown>;
  writer.insert = (table: string, fields: Record<string, unknown>) =>
    documents.insert(table, fields);
  writer.patch = (id: string, fields: Record<string, unknown>) => documents.patch(id, fields);
  writer.replace = (id: string, fields: Record<string, unknown>) => documents.replace(id, fields);
  writer.delete = (id: string) => documents.delete(id);
  return writer as unknown as DatabaseWriter;
}

/**
 * The read-only `ctx.db` of a query or stream, without a writer built first
 * (what {@link readOnly} of {@link createDatabase} answers, for less work per call).
 *
 * @example
 * ```ts
 * const db = createReader({ sql, schema, policyCtx, enforceRls: true, now });
 * const page = await db.query("messages").take(20);
 * ```
 */
export function createReader(options: DatabaseOptions): DatabaseReader {
  return readerOf(new Documents(options));
}

/**
 * `get` and `query` of `source` and nothing else, as functions that need no
 * `this` (`const { get } = ctx.db` works). Methods and assignments, not named
 * arrows: a bundle built with `keepNames` (wrangler's default) names every
 * named arrow with a `defineProperty` call each time it is made, here once
 * per call of a procedure.
 */
function readerOf(source: {
  get(id: string): Promise<unknown>;
  query(table: string): unknown;
}): DatabaseReader {
  return {
    get(id: string) {
      return source.get(id);
    },
    query(table: string) {
      return source.query(table);
    },
  } as unknown as DatabaseReader;
}

/**
 * What `ctx.db` does, once per call: its helpers are methods of one object
 * rather than closures made for each call.
 */
class Documents {
  readonly #sql: SqlStorage;
  readonly #schema: SchemaDefinition;
  readonly #policyCtx: PolicyCtx;
  readonly #enforceRls: boolean;
  readonly #now: () => number;
  readonly #access: TableAccess | undefined;
  readonly #view: DocumentView | undefined;

  constructor(options: DatabaseOptions) {
    this.#sql = options.sql;
    this.#schema = options.schema;
    this.#policyCtx = options.policyCtx;
    this.#enforceRls = options.enforceRls;
    this.#now = options.now;
    this.#access = options.access;
    this.#view = options.view;
  }

  /** The row as handlers see it; `null` when a pending migration cannot present it. */
  #present(
    table: string,
    row: StoredRow,
  ): PresentedDocument | null | Promise<PresentedDocument | null> {
    const view = this.#view;
    return view === undefined
      ? { doc: rowToDocument(row), pending: NO_PENDING }
      : view.present(table, row, this.#policyCtx.meta.shardKey);
  }

  #tableFor(name: string): AnyTableDefinition {
    const { tables } = this.#schema;
    // Own keys only: a table named "__proto__" or "constructor" is no table.
    const definition =
      typeof name === "string" && Object.hasOwn(tables, name) ? tables[name] : undefined;
    if (definition === undefined)
      throw new SvcError("BAD_REQUEST", `No table named ${JSON.stringify(name)} in the schema.`);
    return definition;
  }

  // Not `async`: a table without policies answers `true` at once, so a read of one document awaits
  // nothing it does not need (each await ran in the REST read's CPU profile, BENCHMARKS.md 1a).
  #canRead(table: AnyTableDefinition, doc: Doc): boolean | Promise<boolean> {
    if (!this.#enforceRls || table.policies === undefined) return true;
    return this.#allows(table.policies.read, doc);
  }

  /** One policy entry (rule or function) against one document; no entry refuses. */
  async #allows(entry: unknown, doc: Doc): Promise<boolean> {
    if (entry === undefined) return false;
    if (isRule(entry)) return evaluateRule(entry, this.#policyCtx, doc);
    return (
      (await (entry as (ctx: PolicyCtx, doc: never) => unknown)(this.#policyCtx, doc as never)) ===
      true
    );
  }

  #validate(tableName: string, fields: unknown): void {
    const issues: Issue[] = [];
    this.#tableFor(tableName).validator.check(fields, { path: ROOT_PATH, issues });
    if (issues.length > 0) {
      throw validationFailed(
        toValidationIssues(tableName, issues),
        `Document does not match table ${tableName}: `,
      );
    }
  }

  /** Notes a write in the call's access: its table (which subscriptions re-run) and the document (what a run wrote). */
  #noteWrite(written: WrittenDocument): void {
    this.#access?.writes.add(written.table);
    this.#access?.documents.push(written);
  }

  /** The stored row of `id` in `table` (an own table of the schema), or `undefined`. */
  #row(table: string, id: string): StoredRow | undefined {
    return this.#sql.exec<StoredRow>(selectById(table), id).toArray()[0];
  }

  /**
   * Loads a row for a write, as the handler sees it (migrated in memory
   * while a migration has not reached it). A missing one, a malformed id, a
   * row a pending migration cannot present and a row the caller may not read
   * are the same NOT_FOUND (same code, same message), so a write cannot tell
   * "exists but hidden" from "does not exist"; only a row the caller can read
   * may answer FORBIDDEN.
   */
  async #loadForWrite(id: string): Promise<Loaded> {
    const table = typeof id === "string" ? tableOfId(id) : undefined;
    const row =
      table !== undefined && Object.hasOwn(this.#schema.tables, table)
        ? this.#row(table, id)
        : undefined;
    const presented =
      table === undefined || row === undefined ? null : await this.#present(table, row);
    if (table === undefined || presented === null) throw documentNotFound();
    if (!(await this.#canRead(this.#tableFor(table), presented.doc))) throw documentNotFound();
    return { table, ...presented };
  }

  async #write({ table, doc, pending }: Loaded, nextFields: Record<string, unknown>) {
    this.#validate(table, nextFields);
    const next: Doc = { ...nextFields, _id: doc._id, _creationTime: doc._creationTime };
    const definition = this.#tableFor(table);
    if (this.#enforceRls && definition.policies !== undefined) {
      const update = definition.policies.update;
      const allowed = isRule(update)
        ? (await this.#allows(update, doc)) && (await this.#allows(update, next))
        : update?.(this.#policyCtx, doc as never, next as never);
      await assertAllowed(allowed, "update", table);
    }
    this.#noteWrite({ table, id: doc._id, op: "update" });
    this.#sql.exec(
      `UPDATE ${sqlTable(table)} SET _doc = ? WHERE _id = ?`,
      documentToJson(nextFields),
      doc._id,
    );
    if (pending.length > 0) this.#view?.wrote(table, doc._id, pending);
  }

  /**
   * Not `async`: the usual read (no migration presenting the row, no read
   * policy to await) settles at once, without an async function's frame; an
   * error still rejects, as from an `async` function.
   */
  get(id: string): Promise<Doc | null> {
    try {
      const table = typeof id === "string" ? tableOfId(id) : undefined;
      if (table === undefined || !Object.hasOwn(this.#schema.tables, table))
        return Promise.resolve(null);
      this.#access?.reads.add(table);
      const row = this.#row(table, id);
      if (row === undefined) return Promise.resolve(null);
      const presented = this.#present(table, row);
      if (presented instanceof Promise) return presented.then((found) => this.#shown(table, found));
      return this.#shown(table, presented);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** A presented document if the caller may read it, else `null`. */
  #shown(table: string, presented: PresentedDocument | null): Promise<Doc | null> {
    if (presented === null) return Promise.resolve(null);
    const readable = this.#canRead(this.#tableFor(table), presented.doc);
    if (readable === true) return Promise.resolve(presented.doc);
    return Promise.resolve(readable).then((allowed) => (allowed ? presented.doc : null));
  }

  query(table: string): TableQuery {
    const definition = this.#tableFor(table);
    this.#access?.reads.add(table);
    const read = definition.policies?.read;
    const sql = this.#sql;
    const policyCtx = this.#policyCtx;
    const documents = this;
    // A declarative read rule becomes part of the query's WHERE: SQLite never returns a hidden row.
    // SQLite saw the stored row, so a row migrated in memory is checked again as presented.
    if (this.#enforceRls && isRule(read)) {
      return new TableQuery(
        {
          sql,
          table,
          present(row) {
            return documents.#present(table, row);
          },
          canRead(doc, migrated) {
            return !migrated || evaluateRule(read, policyCtx, doc);
          },
          visibility() {
            return compileRule(read, policyCtx);
          },
          searchIndexes: definition.searchIndexes,
        },
        definition.indexes,
      );
    }
    return new TableQuery(
      {
        sql,
        table,
        present(row) {
          return documents.#present(table, row);
        },
        canRead(doc) {
          return documents.#canRead(definition, doc);
        },
        searchIndexes: definition.searchIndexes,
      },
      definition.indexes,
    );
  }

  async insert(table: string, fields: Record<string, unknown>): Promise<string> {
    const definition = this.#tableFor(table);
    if (!isRecord(fields)) return this.#validate(table, fields) as never;
    for (const key of SYSTEM_FIELDS) {
      if (key in fields)
        throw new SvcError("VALIDATION_FAILED", `${table}: ${key} is set by the system`);
    }
    const own = ownFields(fields);
    this.#validate(table, own);
    const doc: Doc = { ...own, _id: newId(table), _creationTime: this.#now() };
    if (this.#enforceRls && definition.policies !== undefined) {
      await assertAllowed(this.#allows(definition.policies.insert, doc), "insert", table);
    }
    this.#noteWrite({ table, id: doc._id, op: "insert" });
    this.#sql.exec(
      `INSERT INTO ${sqlTable(table)} (_id, _creationTime, _doc) VALUES (?, ?, ?)`,
      doc._id,
      doc._creationTime,
      documentToJson(own),
    );
    return doc._id;
  }

  async patch(id: string, fields: Record<string, unknown>): Promise<void> {
    const loaded = await this.#loadForWrite(id);
    for (const key of SYSTEM_FIELDS) {
      if (key in fields) throw new SvcError("VALIDATION_FAILED", `${key} cannot be patched`);
    }
    const merged = { ...ownFields(loaded.doc) };
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) delete merged[key];
      else setOwn(merged, key, value);
    }
    await this.#write(loaded, merged);
  }

  async replace(id: string, fields: Record<string, unknown>): Promise<void> {
    const loaded = await this.#loadForWrite(id);
    for (const key of SYSTEM_FIELDS) {
      if (key in fields) throw new SvcError("VALIDATION_FAILED", `${key} cannot be replaced`);
    }
    await this.#write(loaded, isRecord(fields) ? ownFields(fields) : fields);
  }

  async delete(id: string): Promise<void> {
    const { table, doc } = await this.#loadForWrite(id);
    const definition = this.#tableFor(table);
    if (this.#enforceRls && definition.policies !== undefined) {
      await assertAllowed(this.#allows(definition.policies.delete, doc), "delete", table);
    }
    this.#noteWrite({ table, id, op: "delete" });
    this.#sql.exec(`DELETE FROM ${sqlTable(table)} WHERE _id = ?`, id);
  }
}

/** The statement reading one document by id, made once per table name (not once per read). */
const SELECT_BY_ID = new Map<string, string>();

function selectById(table: string): string {
  let statement = SELECT_BY_ID.get(table);
  if (statement === undefined) {
    statement = `SELECT _id, _creationTime, _doc FROM ${sqlTable(table)} WHERE _id = ?`;
    SELECT_BY_ID.set(table, statement);
  }
  return statement;
}

async function assertAllowed(
  allowed: boolean | Promise<boolean> | undefined,
  action: string,
  table: string,
): Promise<void> {
  if ((await allowed) !== true) {
    throw new SvcError("FORBIDDEN", `You may not ${action} this document in ${table}.`);
  }
}

function ownFields(doc: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc))
    if (!SYSTEM_FIELDS.includes(key) && value !== undefined) setOwn(out, key, value);
  return out;
}

/** The one answer to a write whose document the caller cannot see, whichever the reason. */
function documentNotFound(): SvcError {
  return new SvcError("NOT_FOUND", "Document not found.");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The read-only view of a database handle, for queries and streams: only
 * `get` and `query`, so a query's handler cannot reach the writer.
 *
 * @example
 * ```ts
 * ctx.db = kind === "mutation" ? db : readOnly(db);
 * ```
 */
export function readOnly(database: DatabaseWriter): DatabaseReader {
  return readerOf(database as never);
}
