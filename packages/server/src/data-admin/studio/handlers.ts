import { manifestOf } from "../../manifest/manifest.ts";
import type { FunctionRegistry } from "../../procedures/procedure.ts";
import type { RouteHandlers } from "../../routes/implement.ts";
import type { ShardEndpoint } from "../../shard/call.ts";
import type { StudioDocument } from "../../studio/shard-protocol.ts";
import { bulkDetail, changeDetail } from "./audit-detail.ts";
import { browseQueryOf } from "./browse-params.ts";
import { DEFAULT_SQL_ROWS, type studioRoutes } from "./contract.ts";
import { callStudio, type StudioRequest } from "./shard-call.ts";
import { type IdentityLookup, resolveRunAs, resolveViewer } from "./viewer.ts";

/** What the studio's handlers need from the `/_svc/admin/data/` mount. */
export interface StudioContext {
  /** The name of the admin token used. */
  operator: string;
  /** The stub of a shard the registry knows; an unknown key throws the generic NOT_FOUND. */
  knownShard(key: string): Promise<ShardEndpoint>;
  /** `authAdmin.lookupIdentity`, when the app has one. */
  lookupIdentity: IdentityLookup | undefined;
  functions: FunctionRegistry;
  /** How long a call may take in its shard (`procedureTimeoutMs`). */
  timeoutMs: number;
}

/** The part of an audit record the studio fills in: what happened, as JSON text. */
export interface StudioAudit {
  detail: string | null;
}

/**
 * The data studio's route handlers, one per route of {@link studioRoutes}:
 * each checks the shard against the registry, sends one request to the
 * shard's `admin` entry and answers its JSON; writes and runs leave their
 * detail (shard, table, id, before and after; or the run's caller and
 * outcome) on the audit record the router opened.
 *
 * @example
 * ```ts
 * implement(dataRoutes).context<DataContext, DataAudit>().handlers({ ...shardHandlers, ...studioHandlers });
 * ```
 */
export const studioHandlers: RouteHandlers<typeof studioRoutes, StudioContext, StudioAudit> = {
  async listFunctions({ ctx }) {
    return { functions: manifestOf(ctx.functions) };
  },

  async listTables({ params, ctx }) {
    const shard = await ctx.knownShard(params.key);
    const { tables } = await callStudio(shard, call(ctx, params.key), "tables", {});
    return { shard: params.key, tables };
  },

  async listDocuments({ params, query, ctx }) {
    const shard = await ctx.knownShard(params.key);
    const browse = browseQueryOf(query);
    const confirmed = query.confirmBanned === "true";
    const { viewer, label } = await resolveViewer(query.asUser, ctx.lookupIdentity, confirmed);
    const page = await callStudio(shard, call(ctx, params.key), "browse", {
      ...browse,
      table: params.table,
      viewer,
    });
    return { shard: params.key, table: params.table, viewer: label, ...page };
  },

  async getDocument({ params, query, ctx }) {
    const shard = await ctx.knownShard(params.key);
    const confirmed = query.confirmBanned === "true";
    const { viewer, label } = await resolveViewer(query.asUser, ctx.lookupIdentity, confirmed);
    const { document } = await callStudio(shard, call(ctx, params.key), "get", {
      table: params.table,
      id: params.id,
      viewer,
    });
    return { shard: params.key, table: params.table, viewer: label, document };
  },

  async insertDocument({ params, body, ctx, audit }) {
    return writeDocument(ctx, audit, params, "insert", { table: params.table, fields: body });
  },

  async patchDocument({ params, body, ctx, audit }) {
    const request = { table: params.table, id: params.id, fields: body };
    return writeDocument(ctx, audit, params, "patch", request);
  },

  async replaceDocument({ params, body, ctx, audit }) {
    const request = { table: params.table, id: params.id, fields: body };
    return writeDocument(ctx, audit, params, "replace", request);
  },

  async deleteDocument({ params, ctx, audit }) {
    const shard = await ctx.knownShard(params.key);
    const change = await callStudio(shard, call(ctx, params.key), "delete", {
      table: params.table,
      id: params.id,
    });
    audit.detail = changeDetail(params.key, change);
    return { deleted: true, id: params.id };
  },

  async bulkDocuments({ params, body, ctx, audit }) {
    const shard = await ctx.knownShard(params.key);
    const target = call(ctx, params.key);
    const { changes } =
      body.action === "delete"
        ? await callStudio(shard, target, "bulkDelete", { table: params.table, ids: body.ids })
        : await callStudio(shard, target, "bulkPatch", {
            table: params.table,
            ids: body.ids,
            fields: body.fields,
          });
    audit.detail = bulkDetail(params.key, body.action, changes);
    return { action: body.action, count: changes.length, ids: changes.map((change) => change.id) };
  },

  async runProcedure({ params, body, ctx, audit }) {
    const shard = await ctx.knownShard(params.key);
    const confirmed = body.confirmBanned === true;
    const { as, label } = await resolveRunAs(body.as, ctx.lookupIdentity, confirmed);
    const started = Date.now();
    const report = await callStudio(shard, call(ctx, params.key), "run", {
      path: body.path,
      args: body.args ?? {},
      as,
    });
    const durationMs = Date.now() - started;
    audit.detail = JSON.stringify({
      shard: params.key,
      path: body.path,
      as: label,
      ok: report.outcome.ok,
      ...(report.outcome.ok ? {} : { error: report.outcome.error.code }),
      durationMs,
      writes: report.writes,
    });
    return {
      path: body.path,
      kind: report.kind,
      as: label,
      outcome: report.outcome,
      durationMs,
      writes: report.writes,
    };
  },

  async runSql({ params, body, ctx, audit }) {
    const shard = await ctx.knownShard(params.key);
    const write = body.write === true;
    // Recorded before it runs: a refused or failing statement is audited with its text too.
    audit.detail = JSON.stringify({
      shard: params.key,
      write,
      sql: body.sql.slice(0, AUDITED_SQL_CHARS),
      ...(body.params === undefined ? {} : { params: body.params.length }),
    });
    const page = await callStudio(shard, call(ctx, params.key), "sql", {
      sql: body.sql,
      params: body.params ?? [],
      write,
      offset: body.offset ?? 0,
      limit: body.limit ?? DEFAULT_SQL_ROWS,
    });
    audit.detail = JSON.stringify({
      ...(JSON.parse(audit.detail) as object),
      rowsRead: page.rowsRead,
      rowsWritten: page.rowsWritten,
    });
    return page;
  },
};

/** The most characters of a statement an audit record keeps. */
const AUDITED_SQL_CHARS = 4_000;

function call(ctx: StudioContext, key: string) {
  return { key, operator: ctx.operator, timeoutMs: ctx.timeoutMs };
}

/** Insert, patch or replace one document; the audit detail holds its before and after. */
async function writeDocument<Op extends "insert" | "patch" | "replace">(
  ctx: StudioContext,
  audit: StudioAudit,
  params: { key: string },
  op: Op,
  request: StudioRequest<Op>,
): Promise<{ document: StudioDocument }> {
  const shard = await ctx.knownShard(params.key);
  const change = await callStudio(shard, call(ctx, params.key), op, request);
  audit.detail = changeDetail(params.key, change);
  return { document: change.after as StudioDocument };
}
