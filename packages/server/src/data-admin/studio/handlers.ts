import type { WrittenDocument } from "../../db/database.ts";
import type { SerializedError } from "../../errors/svc-error.ts";
import type { ProcedureKind } from "../../procedures/references.ts";
import type { ShardEndpoint } from "../../shard/call.ts";
import { changeDetail } from "./audit-detail.ts";
import { type BrowseParams, browseQueryOf } from "./browse-params.ts";
import { callStudio } from "./shard-call.ts";
import type { BrowsePlan, DocumentChange, StudioDocument, TableInfo } from "./shard-protocol.ts";
import {
  type IdentityLookup,
  type RunAsInput,
  resolveRunAs,
  resolveViewer,
  type ViewerLabel,
} from "./viewer.ts";

/** The studio's audit actions: one entry per document an operator changed, one per run. */
export type StudioAuditAction =
  | "document.insert"
  | "document.update"
  | "document.replace"
  | "document.delete"
  | "procedure.run";

/** One audit record the studio asks for (the route records it with the operator). */
export interface StudioAuditRecord {
  action: StudioAuditAction;
  targetType: "document" | "procedure";
  /** The document id, or the procedure path. */
  targetId: string;
  /** JSON: shard, table, before and after (documents); shard, caller, outcome, writes (runs). */
  detail: string;
}

/** What every studio handler needs: the shard named by the path, who asks, how to resolve users. */
export interface StudioCall {
  /** The shard key of the path, already known to the registry. */
  key: string;
  shard: ShardEndpoint;
  operator: string;
  lookup: IdentityLookup | undefined;
  timeoutMs: number;
  /** Records an audit entry (after the change committed). */
  audit(record: StudioAuditRecord): Promise<void>;
}

/** `GET shards/:key/tables`. */
export interface TablesAnswer {
  shard: string;
  tables: TableInfo[];
}

/** `GET shards/:key/tables/:table/documents`. */
export interface DocumentsAnswer {
  shard: string;
  table: string;
  viewer: ViewerLabel;
  documents: StudioDocument[];
  nextCursor: string | null;
  plan: BrowsePlan;
}

/** `GET shards/:key/tables/:table/documents/:id`. */
export interface DocumentAnswer {
  shard: string;
  table: string;
  viewer: ViewerLabel;
  document: StudioDocument;
}

/** A bulk selection's body: delete, or set the same fields on every selected document. */
export type BulkBody =
  | { action: "delete"; ids: string[] }
  | { action: "patch"; ids: string[]; fields: Record<string, unknown> };

/** `POST shards/:key/run`. */
export interface RunAnswer {
  path: string;
  kind: ProcedureKind;
  as: ViewerLabel;
  outcome: { ok: true; value: unknown } | { ok: false; error: SerializedError };
  /** Milliseconds from the worker's call into the shard to its answer. */
  durationMs: number;
  writes: WrittenDocument[];
}

const ACTION_OF: Record<"insert" | "patch" | "replace" | "delete", StudioAuditAction> = {
  insert: "document.insert",
  patch: "document.update",
  replace: "document.replace",
  delete: "document.delete",
};

async function audited(call: StudioCall, op: keyof typeof ACTION_OF, change: DocumentChange) {
  await call.audit({
    action: ACTION_OF[op],
    targetType: "document",
    targetId: change.id,
    detail: changeDetail(call.key, change),
  });
}

/**
 * The data studio's route handlers, independent of how routes are mounted:
 * each reads or changes one shard through its `admin` entry and answers the
 * JSON of docs/admin-api.md ("Data studio").
 */
export const studio = {
  async tables(call: StudioCall): Promise<TablesAnswer> {
    const { tables } = await callStudio(call.shard, call, "tables", {});
    return { shard: call.key, tables };
  },

  async documents(call: StudioCall, table: string, params: BrowseParams): Promise<DocumentsAnswer> {
    const query = browseQueryOf(params);
    const { viewer, label } = await resolveViewer(params.asUser, call.lookup);
    const page = await callStudio(call.shard, call, "browse", { ...query, table, viewer });
    return { shard: call.key, table, viewer: label, ...page };
  },

  async document(
    call: StudioCall,
    table: string,
    id: string,
    asUser: string | undefined,
  ): Promise<DocumentAnswer> {
    const { viewer, label } = await resolveViewer(asUser, call.lookup);
    const { document } = await callStudio(call.shard, call, "get", { table, id, viewer });
    return { shard: call.key, table, viewer: label, document };
  },

  async insert(
    call: StudioCall,
    table: string,
    fields: unknown,
  ): Promise<{ document: StudioDocument }> {
    const change = await callStudio(call.shard, call, "insert", { table, fields });
    await audited(call, "insert", change);
    return { document: change.after as StudioDocument };
  },

  async patch(
    call: StudioCall,
    table: string,
    id: string,
    fields: unknown,
  ): Promise<{ document: StudioDocument }> {
    const change = await callStudio(call.shard, call, "patch", { table, id, fields });
    await audited(call, "patch", change);
    return { document: change.after as StudioDocument };
  },

  async replace(
    call: StudioCall,
    table: string,
    id: string,
    fields: unknown,
  ): Promise<{ document: StudioDocument }> {
    const change = await callStudio(call.shard, call, "replace", { table, id, fields });
    await audited(call, "replace", change);
    return { document: change.after as StudioDocument };
  },

  async remove(
    call: StudioCall,
    table: string,
    id: string,
  ): Promise<{ deleted: true; id: string }> {
    const change = await callStudio(call.shard, call, "delete", { table, id });
    await audited(call, "delete", change);
    return { deleted: true, id };
  },

  async bulk(
    call: StudioCall,
    table: string,
    body: BulkBody,
  ): Promise<{ action: BulkBody["action"]; count: number; ids: string[] }> {
    const { changes } =
      body.action === "delete"
        ? await callStudio(call.shard, call, "bulkDelete", { table, ids: body.ids })
        : await callStudio(call.shard, call, "bulkPatch", {
            table,
            ids: body.ids,
            fields: body.fields,
          });
    for (const change of changes)
      await audited(call, body.action === "delete" ? "delete" : "patch", change);
    return { action: body.action, count: changes.length, ids: changes.map((change) => change.id) };
  },

  async run(
    call: StudioCall,
    body: { path: string; args?: unknown; as: RunAsInput },
  ): Promise<RunAnswer> {
    const { as, label } = await resolveRunAs(body.as, call.lookup);
    const started = Date.now();
    const report = await callStudio(call.shard, call, "run", {
      path: body.path,
      args: body.args ?? {},
      as,
    });
    const durationMs = Date.now() - started;
    await call.audit({
      action: "procedure.run",
      targetType: "procedure",
      targetId: body.path,
      detail: JSON.stringify({
        shard: call.key,
        as: label,
        ok: report.outcome.ok,
        ...(report.outcome.ok ? {} : { error: report.outcome.error.code }),
        writes: report.writes.length,
      }),
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
};
