import type { ObjectType, ObjectValidator, Shape } from "../values/index.ts";
import type { DataAuditAction, DataAuditSink } from "./audit.ts";
import type { StudioDeps } from "./studio/serve.ts";

/** Scheduled backups (`createWorker({ backups })`). */
export interface BackupsOptions {
  /** Name of the R2 bucket binding backups go to (`r2_buckets` in wrangler.jsonc). */
  bucket: string;
  /** The cron expression that backs up every shard; list it under `triggers.crons` too. */
  schedule: string;
  /** Backups kept per shard; older ones are deleted after each new one. @default 7 */
  keep?: number;
}

/** What every data route shares, fixed when `createWorker` is called. */
export interface DataAdminDeps {
  /** The shard namespace of a request's `env`. */
  namespace(env: unknown): DurableObjectNamespace;
  backups: Required<BackupsOptions> | undefined;
  audit: DataAuditSink;
  /** The data studio's own needs (its routes live under the same prefix). */
  studio: StudioDeps;
}

/** One admitted request to a data route, its inputs validated. */
export interface DataCall<Query, Body> {
  request: Request;
  env: unknown;
  /** The `:key` of the path (a checked shard key), or `""` for routes without one. */
  key: string;
  query: Query;
  body: Body;
  operator: string;
  deps: DataAdminDeps;
  /** What the audit entry records as having happened; audited routes set it. */
  audit: { detail: string | null };
}

/**
 * One route of `/_svc/admin/data/`, declared once: method, path (`:key` is a
 * URI-encoded shard key), `v.*` validators of the query and JSON body, the
 * audit action of routes that export or change data, what it answers, and
 * its handler.
 */
export interface DataRoute {
  method: "GET" | "POST" | "DELETE";
  path: string;
  query: ObjectValidator<Shape> | undefined;
  /** A JSON body's validator, `"ndjson"` for a backup stream, or `undefined` for none. */
  body: ObjectValidator<Shape> | "ndjson" | undefined;
  audit: DataAuditAction | undefined;
  /** The answer, in words (docs/admin-api.md has the shapes). */
  answers: string;
  /** Whether the route needs `createWorker({ backups })`; without it the route answers as absent. */
  needsBackups: boolean;
  handle(call: DataCall<never, never>): Promise<Response>;
}

/**
 * Declares a data route with its input types flowing into the handler.
 *
 * @example
 * ```ts
 * dataRoute({
 *   method: "GET", path: "shards", query: v.object({ search: v.optional(v.string()) }),
 *   answers: "{ shards, nextCursor }",
 *   handle: async (call) => jsonResponse(await listShards(…, call.query.search ?? null)),
 * });
 * ```
 */
export function dataRoute<
  Q extends Shape = Record<never, never>,
  B extends Shape = Record<never, never>,
>(route: {
  method: DataRoute["method"];
  path: string;
  query?: ObjectValidator<Q>;
  body?: ObjectValidator<B> | "ndjson";
  audit?: DataAuditAction;
  answers: string;
  needsBackups?: boolean;
  handle(call: DataCall<ObjectType<Q>, ObjectType<B>>): Promise<Response>;
}): DataRoute {
  return {
    method: route.method,
    path: route.path,
    query: route.query as ObjectValidator<Shape> | undefined,
    body: route.body as DataRoute["body"],
    audit: route.audit,
    answers: route.answers,
    needsBackups: route.needsBackups ?? false,
    handle: route.handle as DataRoute["handle"],
  };
}
