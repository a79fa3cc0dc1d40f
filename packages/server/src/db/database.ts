import { SvcError } from "../errors/svc-error.ts";
import { validationFailed } from "../errors/validation-failed.ts";
import type { PolicyCtx } from "../model/policy-ctx.ts";
import type { AnyTableDefinition, SchemaDefinition } from "../schema/define.ts";
import { compileRule, evaluateRule, isRule } from "../schema/rule.ts";
import { newId, tableOfId } from "../values/ids.ts";
import { setOwn } from "../values/own-property.ts";
import { type Issue, toValidationIssues } from "../values/validator.ts";
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

/**
 * `ctx.db`: documents in the shard's SQLite storage, validated against the
 * schema on every write and filtered by RLS on every read.
 */
export function createDatabase(options: DatabaseOptions): DatabaseWriter {
  const { sql, schema, policyCtx, enforceRls, now, access, view } = options;
  const shardKey = policyCtx.meta.shardKey;

  /** The row as handlers see it; `null` when a pending migration cannot present it. */
  const present = (
    table: string,
    row: StoredRow,
  ): PresentedDocument | null | Promise<PresentedDocument | null> =>
    view === undefined
      ? { doc: rowToDocument(row), pending: NO_PENDING }
      : view.present(table, row, shardKey);

  const tableFor = (name: string): AnyTableDefinition => {
    // Own keys only: a table named "__proto__" or "constructor" is no table.
    const definition =
      typeof name === "string" && Object.hasOwn(schema.tables, name)
        ? schema.tables[name]
        : undefined;
    if (definition === undefined)
      throw new SvcError("BAD_REQUEST", `No table named ${JSON.stringify(name)} in the schema.`);
    return definition;
  };

  // Not `async`: a table without policies answers `true` at once, so a read of one document awaits
  // nothing it does not need (each await ran in the REST read's CPU profile, BENCHMARKS.md 1a).
  const canRead = (table: AnyTableDefinition, doc: Doc): boolean | Promise<boolean> => {
    if (!enforceRls || table.policies === undefined) return true;
    return allows(table.policies.read, doc);
  };

  /** One policy entry (rule or function) against one document; no entry refuses. */
  const allows = async (entry: unknown, doc: Doc): Promise<boolean> => {
    if (entry === undefined) return false;
    if (isRule(entry)) return evaluateRule(entry, policyCtx, doc);
    return (
      (await (entry as (ctx: PolicyCtx, doc: never) => unknown)(policyCtx, doc as never)) === true
    );
  };

  const assertAllowed = async (
    allowed: boolean | Promise<boolean> | undefined,
    action: string,
    table: string,
  ) => {
    if ((await allowed) !== true) {
      throw new SvcError("FORBIDDEN", `You may not ${action} this document in ${table}.`);
    }
  };

  const validate = (tableName: string, fields: unknown) => {
    const issues: Issue[] = [];
    tableFor(tableName).validator.check(fields, { path: [], issues });
    if (issues.length > 0) {
      throw validationFailed(
        toValidationIssues(tableName, issues),
        `Document does not match table ${tableName}: `,
      );
    }
  };

  /**
   * Loads a row for a write, as the handler sees it (migrated in memory
   * while a migration has not reached it). A missing one, a malformed id, a
   * row a pending migration cannot present and a row the caller may not read
   * are the same NOT_FOUND (same code, same message), so a write cannot tell
   * "exists but hidden" from "does not exist"; only a row the caller can read
   * may answer FORBIDDEN.
   */
  const loadForWrite = async (
    id: string,
  ): Promise<{ table: string; doc: Doc; pending: readonly string[] }> => {
    const table = typeof id === "string" ? tableOfId(id) : undefined;
    const row =
      table !== undefined && Object.hasOwn(schema.tables, table)
        ? sql
            .exec<StoredRow>(
              `SELECT _id, _creationTime, _doc FROM ${sqlTable(table)} WHERE _id = ?`,
              id,
            )
            .toArray()[0]
        : undefined;
    const presented = table === undefined || row === undefined ? null : await present(table, row);
    if (table === undefined || presented === null) throw documentNotFound();
    if (!(await canRead(tableFor(table), presented.doc))) throw documentNotFound();
    return { table, ...presented };
  };

  const ownFields = (doc: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(doc))
      if (!SYSTEM_FIELDS.includes(key) && value !== undefined) setOwn(out, key, value);
    return out;
  };

  const write = async (
    { table, doc, pending }: { table: string; doc: Doc; pending: readonly string[] },
    nextFields: Record<string, unknown>,
  ) => {
    validate(table, nextFields);
    const next: Doc = { ...nextFields, _id: doc._id, _creationTime: doc._creationTime };
    const definition = tableFor(table);
    if (enforceRls && definition.policies !== undefined) {
      const update = definition.policies.update;
      const allowed = isRule(update)
        ? (await allows(update, doc)) && (await allows(update, next))
        : update?.(policyCtx, doc as never, next as never);
      await assertAllowed(allowed, "update", table);
    }
    access?.writes.add(table);
    access?.documents.push({ table, id: doc._id, op: "update" });
    sql.exec(
      `UPDATE ${sqlTable(table)} SET _doc = ? WHERE _id = ?`,
      documentToJson(nextFields),
      doc._id,
    );
    if (pending.length > 0) view?.wrote(table, doc._id, pending);
  };

  const database: DatabaseWriter = {
    async get(id: string) {
      const table = typeof id === "string" ? tableOfId(id) : undefined;
      if (table === undefined || !Object.hasOwn(schema.tables, table)) return null;
      access?.reads.add(table);
      const row = sql
        .exec<StoredRow>(
          `SELECT _id, _creationTime, _doc FROM ${sqlTable(table)} WHERE _id = ?`,
          id,
        )
        .toArray()[0];
      const found = row === undefined ? null : present(table, row);
      const presented = found instanceof Promise ? await found : found;
      if (presented === null) return null;
      const readable = canRead(tableFor(table), presented.doc);
      return readable === true || (await readable) ? presented.doc : null;
    },

    query(table: string) {
      const definition = tableFor(table);
      access?.reads.add(table);
      const read = definition.policies?.read;
      const presentRow = (row: StoredRow) => present(table, row);
      // A declarative read rule becomes part of the query's WHERE: SQLite never returns a hidden row.
      // SQLite saw the stored row, so a row migrated in memory is checked again as presented.
      if (enforceRls && isRule(read)) {
        return new TableQuery(
          {
            sql,
            table,
            present: presentRow,
            canRead: async (doc, migrated) => !migrated || evaluateRule(read, policyCtx, doc),
            visibility: () => compileRule(read, policyCtx),
            searchIndexes: definition.searchIndexes,
          },
          definition.indexes,
        );
      }
      return new TableQuery(
        {
          sql,
          table,
          present: presentRow,
          canRead: async (doc) => canRead(definition, doc),
          searchIndexes: definition.searchIndexes,
        },
        definition.indexes,
      );
    },

    async insert(table: string, fields: Record<string, unknown>) {
      const definition = tableFor(table);
      if (!isRecord(fields)) return validate(table, fields) as never;
      for (const key of SYSTEM_FIELDS) {
        if (key in fields)
          throw new SvcError("VALIDATION_FAILED", `${table}: ${key} is set by the system`);
      }
      const own = ownFields(fields);
      validate(table, own);
      const doc: Doc = { ...own, _id: newId(table), _creationTime: now() };
      if (enforceRls && definition.policies !== undefined) {
        await assertAllowed(allows(definition.policies.insert, doc), "insert", table);
      }
      access?.writes.add(table);
      access?.documents.push({ table, id: doc._id, op: "insert" });
      sql.exec(
        `INSERT INTO ${sqlTable(table)} (_id, _creationTime, _doc) VALUES (?, ?, ?)`,
        doc._id,
        doc._creationTime,
        documentToJson(own),
      );
      return doc._id as never;
    },

    async patch(id: string, fields: Record<string, unknown>) {
      const loaded = await loadForWrite(id);
      for (const key of SYSTEM_FIELDS) {
        if (key in fields) throw new SvcError("VALIDATION_FAILED", `${key} cannot be patched`);
      }
      const merged = { ...ownFields(loaded.doc) };
      for (const [key, value] of Object.entries(fields)) {
        if (value === undefined) delete merged[key];
        else setOwn(merged, key, value);
      }
      await write(loaded, merged);
    },

    async replace(id: string, fields: Record<string, unknown>) {
      const loaded = await loadForWrite(id);
      for (const key of SYSTEM_FIELDS) {
        if (key in fields) throw new SvcError("VALIDATION_FAILED", `${key} cannot be replaced`);
      }
      await write(loaded, isRecord(fields) ? ownFields(fields) : fields);
    },

    async delete(id: string) {
      const { table, doc } = await loadForWrite(id);
      const definition = tableFor(table);
      if (enforceRls && definition.policies !== undefined) {
        await assertAllowed(allows(definition.policies.delete, doc), "delete", table);
      }
      access?.writes.add(table);
      access?.documents.push({ table, id, op: "delete" });
      sql.exec(`DELETE FROM ${sqlTable(table)} WHERE _id = ?`, id);
    },
  } as unknown as DatabaseWriter;
  return database;
}

/** The one answer to a write whose document the caller cannot see, whichever the reason. */
function documentNotFound(): SvcError {
  return new SvcError("NOT_FOUND", "Document not found.");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The read-only view of a database handle, for queries and streams. */
export function readOnly(database: DatabaseWriter): DatabaseReader {
  return {
    get: database.get.bind(database),
    query: database.query.bind(database),
  } as DatabaseReader;
}
