/**
 * The data studio's routes under `/_svc/admin/data/` (issue 28), declared
 * once: the router, the admin OpenAPI document, the docs table and the
 * dashboard's typed client all come from here. Browser-safe: it imports only
 * `v` and the route primitives.
 */
// The modules themselves, not the contract's index: the index re-exports this group.
import { integer, oneOf, text } from "../../routes/contract/fields.ts";
import { named } from "../../routes/contract/named.ts";
import { route, routeGroup } from "../../routes/contract/route.ts";
import { MAX_SEARCH_TEXT } from "../../schema/search-index.ts";
import { v } from "../../values/index.ts";

/**
 * The registry's row shape and the registry, backup and migration routes'
 * declarations, as types for clients of this browser-safe module (the
 * dashboard derives its client from them through a generated manifest).
 */
export type { dataAdminRoutes, ShardListEntry } from "../contract.ts";

/** Whom an answer was read or run as: always said, so a view as someone else is never taken for the whole table. */
export const viewerLabel = named(
  "StudioViewer",
  v.union(
    v.object({ kind: v.literal("operator") }),
    v.object({
      kind: v.literal("user"),
      userId: v.string(),
      email: v.union(v.string(), v.null()),
      name: v.union(v.string(), v.null()),
    }),
    v.object({ kind: v.literal("anonymous") }),
    v.object({ kind: v.literal("service") }),
  ),
);

/** A stored document: its fields (svc's JSON encoding), `_id` and `_creationTime`. */
export const studioDocument = named(
  "StudioDocument",
  v
    .record(v.any())
    .describe("A document: its fields, `_id` and `_creationTime` (ms since the epoch)."),
);

const policyForm = oneOf(["rule", "function", "none"]);

/** Most rows one page of the SQL console holds. */
export const MAX_SQL_ROWS = 1_000;
/** Rows a page of the SQL console holds when `limit` is not given. */
export const DEFAULT_SQL_ROWS = 100;

/** One page of a console statement's rows. */
export const sqlPage = named(
  "SqlPage",
  v.object({
    columns: v.array(v.string()),
    rows: v
      .array(v.array(v.any()))
      .describe("Values in column order; a blob is `{ $bytes: base64 }`."),
    rowsRead: v.number().describe("Rows SQLite read for this page."),
    rowsWritten: v.number().describe("Rows SQLite wrote (0 in read-only mode)."),
    nextOffset: v
      .union(v.number(), v.null())
      .describe("The `offset` of the next page, or null after the last row."),
    stoppedBy: v
      .union(oneOf(["rows", "size"]), v.null())
      .describe("Why the page ended before the rows did: `limit` rows, or 1 MiB of values."),
    readOnly: v.boolean().describe("True when the statement ran read-only (rolled back)."),
  }),
);

/** A table of a shard: stored rows, fields with their validators, indexes, how RLS is declared. */
export const tableInfo = named(
  "StudioTable",
  v.object({
    name: v.string(),
    rows: v.number(),
    fields: v.array(
      v.object({
        name: v.string(),
        optional: v.boolean(),
        schema: v.record(v.any()).describe("The field's validator as JSON Schema."),
      }),
    ),
    userFields: v
      .array(v.string())
      .describe(
        "Fields holding a user's id: those a declarative policy compares with the caller's user id (`rule.userId`).",
      ),
    indexes: v.array(v.object({ name: v.string(), fields: v.array(v.string()) })),
    searchIndexes: v.array(
      v.object({ name: v.string(), searchField: v.string(), filterFields: v.array(v.string()) }),
    ),
    policies: v.union(
      v.null(),
      v.object({ read: policyForm, insert: policyForm, update: policyForm, delete: policyForm }),
    ),
  }),
);

/** How a browse page was served: by which index, or by a bounded scan that says so. */
export const browsePlan = named(
  "StudioBrowsePlan",
  v.object({
    index: v.string(),
    eqFields: v.array(v.string()),
    rangeField: v.union(v.string(), v.null()),
    order: oneOf(["asc", "desc", "relevance"]),
    scanFields: v.array(v.string()),
    served: oneOf(["index", "scan"]),
    scanned: v.number(),
    scanLimit: v.number(),
    scanLimited: v.boolean(),
  }),
);

const writtenDocument = v.object({
  table: v.string(),
  id: v.string(),
  op: oneOf(["insert", "update", "delete"]),
});

const runError = v.object({
  code: v.string(),
  message: v.string(),
  data: v.optional(v.any()),
  issues: v.optional(v.array(v.object({ path: v.string(), message: v.string() }))),
  headers: v.optional(v.record(v.string())),
});

/** A procedure of the function registry, with its validators as JSON Schema. */
export const procedureInfo = named(
  "StudioProcedure",
  v.object({
    path: v.string(),
    kind: oneOf(["query", "mutation", "action", "stream"]),
    visibility: oneOf(["public", "internal"]),
    rest: v.boolean(),
    args: v.record(v.any()),
    output: v.union(v.record(v.any()), v.null()),
    summary: v.union(v.string(), v.null()),
    description: v.union(v.string(), v.null()),
  }),
);

/**
 * `asUser`: a user's id or email, `anonymous` or `service`; absent, the
 * operator. Not `text()`, which reads an empty value as absent: `asUser=`
 * gave the operator's view of every row to an operator who meant a user.
 */
const asUser = v.optional(v.string({ minLength: 1, maxLength: 320 }));
/** `confirmBanned=true`: the operator means to act as a user who is banned (else 403). */
const confirmBanned = v.optional(oneOf(["true", "false"]));
const changed = v.object({ document: studioDocument });

/** Whom `run` calls as. */
export const runAs = v.union(
  v.object({ kind: v.literal("user"), userId: text(320) }),
  v.object({ kind: v.literal("anonymous") }),
  v.object({ kind: v.literal("service") }),
);

/**
 * The data studio's route table, for the `/_svc/admin/data/` group (its
 * paths are relative to that prefix). Each is admin-token gated like every
 * admin route; every write and run is audited.
 */
export const studioRoutes = {
  listFunctions: route({
    method: "GET",
    path: "functions",
    summary: "List every procedure",
    description:
      "Public and internal procedures from the function registry, with kind, exposure and validators as JSON Schema.",
    answer: v.object({ functions: v.array(procedureInfo) }),
  }),
  listTables: route({
    method: "GET",
    path: "shards/:key/tables",
    summary: "List a shard's tables",
    description:
      "Per table: rows stored in this shard, fields with their validators, indexes (`by_creation_time` first) and how each RLS operation is declared.",
    answer: v.object({ shard: v.string(), tables: v.array(tableInfo) }),
    errors: ["NOT_FOUND"],
  }),
  listDocuments: route({
    method: "GET",
    path: "shards/:key/tables/:table/documents",
    summary: "Browse a table",
    description:
      "By an index (`eq`: JSON array pinning its leading fields; `gte` / `lte`: JSON bounds on the next key) or by creation time, in `order`, filtered by `filter` (a JSON object of field → value, served by an index when one matches, else a scan of at most `plan.scanLimit` rows per page that says so; `_id` reads that one document by its key, plan index `by_id`), cursor-paged. With `search`, the words are searched with `searchIndex` (the table's first search index when absent), most relevant first (`plan.order` is `relevance`); `filter` fields that are the index's filter fields narrow it, others are scanned. As the operator (every row) or, with `asUser`, exactly as that caller's RLS allows.",
    query: v.object({
      index: v.optional(text(128)),
      eq: v.optional(text(4096)),
      gte: v.optional(text(1024)),
      lte: v.optional(text(1024)),
      order: v.optional(oneOf(["asc", "desc"])),
      filter: v.optional(text(4096)),
      search: v.optional(text(MAX_SEARCH_TEXT)),
      searchIndex: v.optional(text(128)),
      cursor: v.optional(text(4096)),
      limit: v.optional(integer(1, 100)),
      asUser,
      confirmBanned,
    }),
    answer: v.object({
      shard: v.string(),
      table: v.string(),
      viewer: viewerLabel,
      documents: v.array(studioDocument),
      nextCursor: v.union(v.string(), v.null()),
      plan: browsePlan,
    }),
    errors: ["NOT_FOUND", "BAD_REQUEST"],
  }),
  getDocument: route({
    method: "GET",
    path: "shards/:key/tables/:table/documents/:id",
    summary: "Read one document",
    query: v.object({ asUser, confirmBanned }),
    answer: v.object({
      shard: v.string(),
      table: v.string(),
      viewer: viewerLabel,
      document: studioDocument,
    }),
    errors: ["NOT_FOUND", "BAD_REQUEST"],
  }),
  insertDocument: route({
    method: "POST",
    path: "shards/:key/tables/:table/documents",
    summary: "Insert a document",
    description: "The body is the new document's fields, validated against the table's schema.",
    body: v.record(v.any()),
    answer: changed,
    status: 201,
    errors: ["NOT_FOUND"],
    audit: "document.insert",
  }),
  patchDocument: route({
    method: "PATCH",
    path: "shards/:key/tables/:table/documents/:id",
    summary: "Change some fields of a document",
    description:
      "Sets the given fields (shallow); the result is validated against the table's schema. To remove an optional field, replace the document.",
    body: v.record(v.any()),
    answer: changed,
    errors: ["NOT_FOUND"],
    audit: "document.update",
  }),
  replaceDocument: route({
    method: "PUT",
    path: "shards/:key/tables/:table/documents/:id",
    summary: "Replace a document's fields",
    body: v.record(v.any()),
    answer: changed,
    errors: ["NOT_FOUND"],
    audit: "document.replace",
  }),
  deleteDocument: route({
    method: "DELETE",
    path: "shards/:key/tables/:table/documents/:id",
    summary: "Delete a document",
    answer: v.object({ deleted: v.literal(true), id: v.string() }),
    errors: ["NOT_FOUND"],
    audit: "document.delete",
  }),
  bulkDocuments: route({
    method: "POST",
    path: "shards/:key/tables/:table/documents/bulk",
    summary: "Delete or patch a selection of documents",
    description:
      "One transaction: every listed document is deleted (or gets `fields`), or none is. At most 1,000 ids.",
    body: v.union(
      v.object({ action: v.literal("delete"), ids: v.array(v.string()) }),
      v.object({ action: v.literal("patch"), ids: v.array(v.string()), fields: v.record(v.any()) }),
    ),
    answer: v.object({
      action: oneOf(["delete", "patch"]),
      count: v.number(),
      ids: v.array(v.string()),
    }),
    errors: ["NOT_FOUND"],
    audit: "document.bulk",
  }),
  runProcedure: route({
    method: "POST",
    path: "shards/:key/run",
    summary: "Run a procedure as a chosen identity",
    description:
      "Any public or internal query, mutation or action, in this shard, as a user, anonymously or as the service identity. Answers the value or the error, the duration and the documents written.",
    body: v.object({
      path: text(256),
      args: v.optional(v.record(v.any())),
      as: runAs,
      /** Run as a banned user anyway (else 403 naming the ban). */
      confirmBanned: v.optional(v.boolean()),
    }),
    answer: v.object({
      path: v.string(),
      kind: oneOf(["query", "mutation", "action"]),
      as: viewerLabel,
      outcome: v.union(
        v.object({ ok: v.literal(true), value: v.any() }),
        v.object({ ok: v.literal(false), error: runError }),
      ),
      durationMs: v.number(),
      writes: v.array(writtenDocument),
    }),
    errors: ["NOT_FOUND", "BAD_REQUEST"],
    audit: "procedure.run",
  }),
  runSql: route({
    method: "POST",
    path: "shards/:key/sql",
    summary: "Run one SQL statement in a shard's SQLite (read-only unless `write`)",
    description:
      "SQLite decides whether the statement writes (its compiled program); without `write: true` one that does is refused (`403`) and a read runs in a transaction that is rolled back. `write: true` commits, outside validators, RLS and subscriptions. One statement per request; `params` bind its `?`s. A page holds up to `limit` rows (1–1,000, default 100) and 1 MiB of values; `offset` (the previous page's `nextOffset`) continues. Audited with the statement.",
    body: v.object({
      sql: text(100_000),
      params: v.optional(v.array(v.union(v.string(), v.number(), v.null()))),
      write: v.optional(v.boolean()),
      offset: v.optional(integer(0, 1_000_000_000)),
      limit: v.optional(integer(1, MAX_SQL_ROWS)),
    }),
    answer: sqlPage,
    errors: ["NOT_FOUND", "BAD_REQUEST", "FORBIDDEN"],
    audit: "shard.sql",
  }),
} as const;

/**
 * The data studio's routes as a group under `/_svc/admin/data/`, beside the
 * registry and backup routes of that prefix: what the dashboard's client is
 * derived from.
 */
export const studioGroup = routeGroup({
  prefix: "/_svc/admin/data/",
  tag: "data",
  routes: studioRoutes,
});
