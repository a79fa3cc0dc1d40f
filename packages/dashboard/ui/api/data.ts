import type {
  browsePlan,
  procedureInfo,
  runAs,
  ShardListEntry,
  studioDocument,
  studioRoutes,
  tableInfo,
  viewerLabel,
} from "@svc/server/data-admin/studio-contract";
import {
  createRouteClient,
  type dataAdminRoutes,
  type Infer,
  type RouteAnswer,
  type RouteQuery,
  type RouteTransport,
} from "@svc/server/routes/contract";
import { dataAdminApi } from "./data-admin.ts";
import { STUDIO_MANIFEST } from "./data-routes.generated.ts";

/** A JSON Schema node as the server sends it (a field's validator). */
export type JsonSchema = { readonly [key: string]: unknown };

/** One registry row of `GET data/shards` and `GET data/shards/:key` (the server's declaration). */
export type ShardEntry = ShardListEntry;

/** A table of a shard (`GET data/shards/:key/tables`). */
export type TableInfo = Infer<typeof tableInfo>;
/** A stored document. */
export type StudioDocument = Infer<typeof studioDocument> & { _id: string; _creationTime: number };
/** Whom an answer was read or run as. */
export type ViewerLabel = Infer<typeof viewerLabel>;
/** How a browse page was served. */
export type BrowsePlan = Infer<typeof browsePlan>;
/** One procedure of `GET data/functions`. */
export type ProcedureInfo = Infer<typeof procedureInfo>;
/** Whom to run a procedure as. */
export type RunAs = Infer<typeof runAs>;
/** One page of `POST data/shards/:key/sql`. */
export type SqlPage = RouteAnswer<typeof studioRoutes.runSql>;
/** `POST data/shards/:key/run`. */
export type RunAnswer = RouteAnswer<typeof studioRoutes.runProcedure>;
/** The browse query exactly as the URL and the API carry it (JSON-valued parameters as text). */
export type BrowseQuery = Omit<RouteQuery<typeof studioRoutes.listDocuments>, "cursor" | "limit">;

/** `GET data/shards/:key/tables/:table/documents`, with documents typed as stored ones. */
export type DocumentsPage = Omit<RouteAnswer<typeof studioRoutes.listDocuments>, "documents"> & {
  documents: StudioDocument[];
};

/**
 * The data studio's routes (`/_svc/admin/data/`): the client derived from
 * their declarations through the generated manifest (`STUDIO_MANIFEST`,
 * which holds them without their validators, so the Data and Functions
 * screens load no validator code), plus the registry's routes
 * (through {@link dataAdminApi}: the shard list, a shard, its deletion), over the
 * dashboard's admin transport (the token, errors as `ApiError`).
 *
 * @example
 * ```ts
 * const data = dataApi(transport);
 * const { tables } = await data.tables("room-1");
 * ```
 */
export function dataApi(send: RouteTransport) {
  const routes = createRouteClient(STUDIO_MANIFEST, send);
  const registry = dataAdminApi(send);
  return {
    shards: (query: RouteQuery<typeof dataAdminRoutes.routes.listShards>, signal?: AbortSignal) =>
      registry.listShards({ query, signal }),
    /** One shard's registry row. */
    shard: (key: string, signal?: AbortSignal) => registry.getShard({ params: { key }, signal }),
    /** Deletes every document of a shard; `confirm` must repeat its key (the server checks it and audits). */
    deleteShard: (key: string, confirm: string) =>
      registry.deleteShard({ params: { key }, query: { confirm } }),
    tables: (key: string, signal?: AbortSignal) => routes.listTables({ params: { key }, signal }),
    documents: async (
      key: string,
      table: string,
      query: BrowseQuery & { cursor?: string; limit?: number },
      signal?: AbortSignal,
    ) => (await routes.listDocuments({ params: { key, table }, query, signal })) as DocumentsPage,
    insert: (key: string, table: string, fields: Record<string, unknown>) =>
      routes.insertDocument({ params: { key, table }, body: fields }),
    replace: (key: string, table: string, id: string, fields: Record<string, unknown>) =>
      routes.replaceDocument({ params: { key, table, id }, body: fields }),
    remove: (key: string, table: string, id: string) =>
      routes.deleteDocument({ params: { key, table, id } }),
    bulkDelete: (key: string, table: string, ids: string[]) =>
      routes.bulkDocuments({ params: { key, table }, body: { action: "delete", ids } }),
    run: (key: string, body: { path: string; args: Record<string, unknown>; as: RunAs }) =>
      routes.runProcedure({ params: { key }, body }),
    functions: (signal?: AbortSignal) => routes.listFunctions({ signal }),
    /** One statement over the shard's SQLite: read-only unless `write`, a page from `offset`. */
    sql: (key: string, body: { sql: string; write: boolean; offset?: number }) =>
      routes.runSql({ params: { key }, body }),
  };
}

/** The data studio's API as screens use it. */
export type DataApi = ReturnType<typeof dataApi>;
