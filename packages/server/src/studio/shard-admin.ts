import type { DatabaseWriter } from "../db/types.ts";
import type { CallOrigin, Dispatcher } from "../dispatch/dispatch.ts";
import { normalizeError } from "../errors/normalize.ts";
import { SvcError, serializeError } from "../errors/svc-error.ts";
import type { Identity } from "../model/identity.ts";
import type { SchemaDefinition } from "../schema/define.ts";
import { browse } from "./browse.ts";
import { planBrowse } from "./browse-plan.ts";
import { checkSelection, edits, readDocument } from "./documents.ts";
import type {
  DocumentChange,
  RunReport,
  ShardAdminAnswers,
  ShardAdminRequest,
  ShardAdminResult,
  Viewer,
} from "./shard-protocol.ts";
import { runSql, type SqlConsoleStorage } from "./sql-console.ts";
import { describeTables, tableNamed } from "./tables.ts";

/** What policies see as `ctx.meta.path` for a data-studio read or edit. */
export const STUDIO_META_PATH = "_svc:data";

/** What the data studio needs from its shard. */
export interface ShardAdminDeps {
  schema: SchemaDefinition;
  /** The shard's storage: its SQL, and transactions for the SQL console. */
  storage: SqlConsoleStorage;
  dispatcher: Dispatcher;
}

type Caller = { identity: Identity | null; service: string | null };

function callerOf(viewer: Viewer | { kind: "operator" }, operator: string): Caller {
  if (viewer.kind === "user") return { identity: viewer.identity, service: null };
  if (viewer.kind === "anonymous") return { identity: null, service: null };
  // The operator and the service identity both run as the app's own service, named after the operator.
  return { identity: null, service: `admin:${operator}` };
}

/**
 * The shard's side of `/_svc/admin/data/`: describes tables, browses and
 * reads documents as the operator or as a chosen caller (through the
 * dispatcher's own RLS path), applies operator edits through the dispatcher's
 * commit path (one transaction, subscriptions notified), and runs procedures
 * as a chosen identity, reporting what they wrote, and runs the SQL console's
 * statements (read-only unless asked). Never throws: errors come
 * back serialised, as every other shard answer does.
 *
 * @example
 * ```ts
 * const admin = shardAdmin({ schema, storage: ctx.storage, dispatcher });
 * await admin({ op: "tables", operator: "alice", requestId, shardKey: "default" });
 * ```
 */
export function shardAdmin(
  deps: ShardAdminDeps,
): (request: ShardAdminRequest) => Promise<ShardAdminResult> {
  const { schema, storage, dispatcher } = deps;
  const { sql } = storage;
  const origin = (request: ShardAdminRequest, caller: Caller): CallOrigin => ({
    ...caller,
    transport: "admin",
    requestId: request.requestId,
    shardKey: request.shardKey,
  });
  const operatorWrite = <T>(
    request: ShardAdminRequest,
    work: (db: DatabaseWriter) => Promise<T>,
  ): Promise<T> =>
    dispatcher.write(
      origin(request, callerOf({ kind: "operator" }, request.operator)),
      STUDIO_META_PATH,
      work,
    );

  const answer = async (
    request: ShardAdminRequest,
  ): Promise<ShardAdminAnswers[typeof request.op]> => {
    switch (request.op) {
      case "tables":
        return { tables: describeTables(sql, schema) };
      case "browse": {
        const definition = tableNamed(schema, request.table);
        const plan = planBrowse(definition, request);
        const { viewer } = request;
        const db = dispatcher.reader(
          origin(request, callerOf(viewer, request.operator)),
          STUDIO_META_PATH,
          viewer.kind !== "operator",
        );
        return browse(db, request.table, plan, {
          cursor: request.cursor ?? null,
          limit: request.limit,
        });
      }
      case "get": {
        tableNamed(schema, request.table);
        const { viewer } = request;
        const db = dispatcher.reader(
          origin(request, callerOf(viewer, request.operator)),
          STUDIO_META_PATH,
          viewer.kind !== "operator",
        );
        return { document: await readDocument(db, request.table, request.id) };
      }
      case "insert": {
        const definition = tableNamed(schema, request.table);
        return operatorWrite(request, (db) =>
          edits.insert(db, definition, request.table, request.fields),
        );
      }
      case "patch": {
        const definition = tableNamed(schema, request.table);
        return operatorWrite(request, (db) =>
          edits.patch(db, definition, request.table, request.id, request.fields),
        );
      }
      case "replace": {
        const definition = tableNamed(schema, request.table);
        return operatorWrite(request, (db) =>
          edits.replace(db, definition, request.table, request.id, request.fields),
        );
      }
      case "delete":
        tableNamed(schema, request.table);
        return operatorWrite(request, (db) => edits.delete(db, request.table, request.id));
      case "bulkDelete": {
        tableNamed(schema, request.table);
        checkSelection(request.ids);
        return operatorWrite(request, async (db) => {
          const changes: DocumentChange[] = [];
          for (const id of request.ids) changes.push(await edits.delete(db, request.table, id));
          return { changes };
        });
      }
      case "bulkPatch": {
        const definition = tableNamed(schema, request.table);
        checkSelection(request.ids);
        return operatorWrite(request, async (db) => {
          const changes: DocumentChange[] = [];
          for (const id of request.ids) {
            changes.push(
              await edits.patch(db, definition, request.table, id, request.fields, "body.fields"),
            );
          }
          return { changes };
        });
      }
      case "run":
        return run(request);
      case "sql":
        return runSql(storage, request);
    }
  };

  const run = async (request: Extract<ShardAdminRequest, { op: "run" }>): Promise<RunReport> => {
    const procedure = dispatcher.serverProcedure(request.path);
    const { kind } = procedure;
    // serverProcedure never answers a stream; the check narrows the type.
    if (kind === "stream") throw new SvcError("NOT_FOUND", "Not found.");
    const written: RunReport["writes"] = [];
    const callOrigin = { ...origin(request, callerOf(request.as, request.operator)), written };
    try {
      const value = await dispatcher.run(request.path, procedure, request.args, callOrigin);
      return { kind, outcome: { ok: true, value }, writes: written };
    } catch (thrown) {
      const error = serializeError(normalizeError(thrown));
      return { kind, outcome: { ok: false, error }, writes: written };
    }
  };

  return async (request) => {
    try {
      return { ok: true, value: await answer(request) } as ShardAdminResult;
    } catch (thrown) {
      return { ok: false, error: serializeError(normalizeError(thrown)) };
    }
  };
}
