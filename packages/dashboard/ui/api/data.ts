import { type AdminClient, pathOf } from "./client.ts";

/** A JSON Schema node as the server sends it (a field's validator). */
export type JsonSchema = { readonly [key: string]: unknown };

/** One registry row of `GET data/shards`. */
export interface ShardEntry {
  key: string;
  [field: string]: unknown;
}

/** One field of a table: name, whether it may be absent, its validator as JSON Schema. */
export interface FieldInfo {
  name: string;
  optional: boolean;
  schema: JsonSchema;
}

/** How one RLS operation is declared. */
export type PolicyForm = "rule" | "function" | "none";

/** A table of a shard (`GET data/shards/:key/tables`). */
export interface TableInfo {
  name: string;
  rows: number;
  fields: FieldInfo[];
  indexes: { name: string; fields: string[] }[];
  policies: Record<"read" | "insert" | "update" | "delete", PolicyForm> | null;
}

/** A stored document. */
export type StudioDocument = Record<string, unknown> & { _id: string; _creationTime: number };

/** Whom an answer was read or run as. */
export type ViewerLabel =
  | { kind: "operator" }
  | { kind: "user"; userId: string; email: string | null; name: string | null }
  | { kind: "anonymous" }
  | { kind: "service" };

/** How a browse page was served. */
export interface BrowsePlan {
  index: string;
  eqFields: string[];
  rangeField: string | null;
  order: "asc" | "desc";
  scanFields: string[];
  served: "index" | "scan";
  scanned: number;
  scanLimit: number;
  scanLimited: boolean;
}

/** `GET data/shards/:key/tables/:table/documents`. */
export interface DocumentsPage {
  shard: string;
  table: string;
  viewer: ViewerLabel;
  documents: StudioDocument[];
  nextCursor: string | null;
  plan: BrowsePlan;
}

/** The browse query exactly as the URL and the API carry it (JSON-valued parameters as text). */
export interface BrowseQuery {
  index?: string;
  eq?: string;
  gte?: string;
  lte?: string;
  order?: "asc" | "desc";
  filter?: string;
  asUser?: string;
}

/** A document one write touched. */
export interface WrittenDocument {
  table: string;
  id: string;
  op: "insert" | "update" | "delete";
}

/** A run's error, as problem details would carry it. */
export interface RunError {
  code: string;
  message: string;
  issues?: { path: string; message: string }[];
}

/** `POST data/shards/:key/run`. */
export interface RunAnswer {
  path: string;
  kind: "query" | "mutation" | "action";
  as: ViewerLabel;
  outcome: { ok: true; value: unknown } | { ok: false; error: RunError };
  durationMs: number;
  writes: WrittenDocument[];
}

/** Whom to run a procedure as. */
export type RunAs = { kind: "user"; userId: string } | { kind: "anonymous" } | { kind: "service" };

/** One procedure of `GET data/functions`. */
export interface ProcedureInfo {
  path: string;
  kind: "query" | "mutation" | "action" | "stream";
  visibility: "public" | "internal";
  rest: boolean;
  args: JsonSchema;
  output: JsonSchema | null;
  summary: string | null;
  description: string | null;
}

const shard = (key: string, ...rest: string[]) => `data/${pathOf("shards", key, ...rest)}`;

/**
 * The data studio's routes (`/_svc/admin/data/`), one typed function each,
 * as `adminApi` does for the auth routes.
 */
export function dataApi(client: AdminClient) {
  return {
    shards: (query: { search?: string; cursor?: string; limit?: number }, signal?: AbortSignal) =>
      client.request<{ shards: ShardEntry[]; nextCursor: string | null }>("GET", "data/shards", {
        query,
        signal,
      }),
    tables: (key: string, signal?: AbortSignal) =>
      client.request<{ shard: string; tables: TableInfo[] }>("GET", shard(key, "tables"), {
        signal,
      }),
    documents: (
      key: string,
      table: string,
      query: BrowseQuery & { cursor?: string; limit?: number },
      signal?: AbortSignal,
    ) =>
      client.request<DocumentsPage>("GET", shard(key, "tables", table, "documents"), {
        query: { ...query },
        signal,
      }),
    document: (key: string, table: string, id: string, asUser?: string, signal?: AbortSignal) =>
      client.request<{ viewer: ViewerLabel; document: StudioDocument }>(
        "GET",
        shard(key, "tables", table, "documents", id),
        { query: { asUser }, signal },
      ),
    insert: (key: string, table: string, fields: Record<string, unknown>) =>
      client.request<{ document: StudioDocument }>(
        "POST",
        shard(key, "tables", table, "documents"),
        {
          body: fields,
        },
      ),
    replace: (key: string, table: string, id: string, fields: Record<string, unknown>) =>
      client.request<{ document: StudioDocument }>(
        "PUT",
        shard(key, "tables", table, "documents", id),
        { body: fields },
      ),
    remove: (key: string, table: string, id: string) =>
      client.request<{ deleted: true; id: string }>(
        "DELETE",
        shard(key, "tables", table, "documents", id),
      ),
    bulkDelete: (key: string, table: string, ids: string[]) =>
      client.request<{ action: "delete"; count: number; ids: string[] }>(
        "POST",
        shard(key, "tables", table, "documents", "bulk"),
        { body: { action: "delete", ids } },
      ),
    run: (key: string, body: { path: string; args: Record<string, unknown>; as: RunAs }) =>
      client.request<RunAnswer>("POST", shard(key, "run"), { body }),
    functions: (signal?: AbortSignal) =>
      client.request<{ functions: ProcedureInfo[] }>("GET", "data/functions", { signal }),
  };
}

/** The data studio's API as screens use it. */
export type DataApi = ReturnType<typeof dataApi>;
