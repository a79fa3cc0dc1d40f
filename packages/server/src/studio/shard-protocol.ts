import type { WrittenDocument } from "../db/database.ts";
import type { SerializedError } from "../errors/svc-error.ts";
import type { Identity } from "../model/identity.ts";
import type { ProcedureKind } from "../procedures/references.ts";
import type { JsonSchema } from "../values/validator.ts";

/**
 * Whom the data studio reads as: the operator (every row, no RLS), or a
 * caller whose RLS applies exactly as on their own calls. Plain data: it
 * crosses into the shard.
 */
export type Viewer =
  | { kind: "operator" }
  | { kind: "user"; identity: Identity }
  | { kind: "anonymous" }
  | { kind: "service" };

/** A literal a browse filter compares a field with (`===`, as rules do). */
export type FilterValue = string | number | boolean | null;

/** A stored document as the studio answers it. */
export type StudioDocument = Record<string, unknown> & { _id: string; _creationTime: number };

/** One field of a table: its name, whether it may be absent, and its validator as JSON Schema. */
export interface FieldInfo {
  name: string;
  optional: boolean;
  schema: JsonSchema;
}

/** How one RLS operation of a table is declared. */
export type PolicyForm = "rule" | "function" | "none";

/** A table of a shard, as `GET shards/:key/tables` answers it. */
export interface TableInfo {
  name: string;
  /** Rows stored in this shard, hidden or not. */
  rows: number;
  fields: FieldInfo[];
  /** Fields holding a user's id: those a declarative policy compares with the caller's user id. */
  userFields: string[];
  /** `by_creation_time` first, then the schema's indexes in declaration order. */
  indexes: { name: string; fields: string[] }[];
  /** The table's search indexes, in declaration order (docs/search.md). */
  searchIndexes: { name: string; searchField: string; filterFields: string[] }[];
  /** `null` when the table declares no policy (RLS does not restrict it). */
  policies: Record<"read" | "insert" | "update" | "delete", PolicyForm> | null;
}

/** What a browse asks for: an index range, an order, field filters, a page. */
export interface BrowseQuery {
  table: string;
  viewer: Viewer;
  /** An index of the table, or `by_creation_time`; chosen from `filter` when absent. */
  index?: string;
  /** Values for the index's leading fields, in order. */
  eq?: unknown[];
  /** Bounds on the index key right after the `eq` prefix. */
  gte?: unknown;
  lte?: unknown;
  order?: "asc" | "desc";
  /** Field equalities; an index serves those it can, a bounded scan the rest. */
  filter?: Record<string, FilterValue>;
  /** Words to search with a search index, most relevant first (no `index`, `eq`, bounds, `order`). */
  search?: string;
  /** The search index for `search`; the table's first one when absent. */
  searchIndex?: string;
  cursor?: string;
  limit: number;
}

/** How a browse was served: what the answer says about its own cost. */
export interface BrowsePlan {
  /** The index, or the search index of a search. */
  index: string;
  /** Index fields pinned by equality (from `eq` or from the filter). */
  eqFields: string[];
  /** The index key the `gte` / `lte` bounds apply to, if any. */
  rangeField: string | null;
  /** `relevance` for a search. */
  order: "asc" | "desc" | "relevance";
  /** Filter fields checked row by row (not served by the index). */
  scanFields: string[];
  /** `index` when the index range alone selects the rows, `scan` when rows are read and checked. */
  served: "index" | "scan";
  /** Rows read for this page. */
  scanned: number;
  /** Most rows one page may read. */
  scanLimit: number;
  /** True when the page stopped at `scanLimit`: `nextCursor` continues the scan. */
  scanLimited: boolean;
}

/** One page of a browse. */
export interface BrowsePage {
  documents: StudioDocument[];
  /** `null` on the last page. */
  nextCursor: string | null;
  plan: BrowsePlan;
}

/** An operator's write, before and after (`null` for an insert's before and a delete's after). */
export interface DocumentChange {
  table: string;
  id: string;
  before: StudioDocument | null;
  after: StudioDocument | null;
}

/** Whom a studio run calls as. */
export type RunAs =
  | { kind: "user"; identity: Identity }
  | { kind: "anonymous" }
  | { kind: "service" };

/** What a studio run answers from the shard: the outcome and what it wrote. */
export interface RunReport {
  kind: Exclude<ProcedureKind, "stream">;
  outcome: { ok: true; value: unknown } | { ok: false; error: SerializedError };
  /** Documents written by mutations that committed, in order. */
  writes: WrittenDocument[];
}

/** A value bound to a `?` of a console statement. */
export type SqlParam = string | number | null;

/** One statement of the SQL console and which page of its rows. */
export interface SqlQuery {
  sql: string;
  params: SqlParam[];
  /** Run a statement that writes, committing it; `false` refuses one. */
  write: boolean;
  /** Rows skipped before the page (the previous page's `nextOffset`). */
  offset: number;
  limit: number;
}

/** One page of a console statement's rows. */
export interface SqlPage {
  columns: string[];
  /** Values in column order; blobs as `{ $bytes: base64 }`. */
  rows: unknown[][];
  /** Rows SQLite read and wrote for this page (its own counters). */
  rowsRead: number;
  rowsWritten: number;
  /** Where the next page starts, or `null` after the last row. */
  nextOffset: number | null;
  /** Why the page ended before the rows did: the row cap or the size cap. */
  stoppedBy: "rows" | "size" | null;
  /** True when the statement ran read-only (rolled back). */
  readOnly: boolean;
}

/** One request from the worker's data-admin routes to a shard. Plain data (crosses JS RPC). */
export type ShardAdminRequest = { operator: string; requestId: string; shardKey: string } & (
  | { op: "tables" }
  | ({ op: "browse" } & BrowseQuery)
  | { op: "get"; table: string; id: string; viewer: Viewer }
  | { op: "insert"; table: string; fields: unknown }
  | { op: "patch"; table: string; id: string; fields: unknown }
  | { op: "replace"; table: string; id: string; fields: unknown }
  | { op: "delete"; table: string; id: string }
  | { op: "bulkDelete"; table: string; ids: string[] }
  | { op: "bulkPatch"; table: string; ids: string[]; fields: unknown }
  | { op: "run"; path: string; args: unknown; as: RunAs }
  | ({ op: "sql" } & SqlQuery)
);

/** What each request answers. */
export interface ShardAdminAnswers {
  tables: { tables: TableInfo[] };
  browse: BrowsePage;
  get: { document: StudioDocument };
  insert: DocumentChange;
  patch: DocumentChange;
  replace: DocumentChange;
  delete: DocumentChange;
  bulkDelete: { changes: DocumentChange[] };
  bulkPatch: { changes: DocumentChange[] };
  run: RunReport;
  sql: SqlPage;
}

/** A shard's answer: the value, or the error (serialised to cross JS RPC). */
export type ShardAdminResult<Op extends keyof ShardAdminAnswers = keyof ShardAdminAnswers> =
  | { ok: true; value: ShardAdminAnswers[Op] }
  | { ok: false; error: SerializedError };
