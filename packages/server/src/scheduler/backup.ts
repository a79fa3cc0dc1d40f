import { isProcedurePath } from "../procedures/references.ts";
import { countUnfinished, ensureScheduledTable, SCHEDULED_TABLE } from "./table.ts";

/** A job's fields as a backup line's `doc` carries them (its id and creation time are the line's). */
interface JobFields {
  path: string;
  kind: "mutation" | "action";
  args: string;
  runAt: number;
  attempts: number;
  identity: string | null;
  service: string | null;
  userId: string | null;
  targetShard: string | null;
  plan: string | null;
  error: string | null;
}

const UNFINISHED = "state IN ('pending', 'running')";

function optionalText(doc: Record<string, unknown>, field: string): string | null {
  const value = doc[field];
  if (value === null || value === undefined) return null;
  if (typeof value !== "string")
    throw new Error(`a scheduled job's ${field} must be a string or null`);
  return value;
}

function jsonObjectText(
  doc: Record<string, unknown>,
  field: string,
  required: boolean,
): string | null {
  const text = optionalText(doc, field);
  if (text === null) {
    if (required) throw new Error(`a scheduled job needs ${field}`);
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`a scheduled job's ${field} must be JSON text`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new Error(`a scheduled job's ${field} must be a JSON object`);
  return text;
}

/** Checks one job line's fields; a bad one throws the message the restore reports with its line. */
function checkJob(doc: Record<string, unknown>): JobFields {
  const { path, kind, runAt, attempts } = doc;
  if (typeof path !== "string" || !isProcedurePath(path))
    throw new Error("a scheduled job's path must be a procedure path (namespace:name)");
  if (kind !== "mutation" && kind !== "action")
    throw new Error('a scheduled job\'s kind must be "mutation" or "action"');
  if (typeof runAt !== "number" || !Number.isSafeInteger(runAt) || runAt < 0)
    throw new Error("a scheduled job's runAt must be an epoch-ms integer");
  if (typeof attempts !== "number" || !Number.isSafeInteger(attempts) || attempts < 0)
    throw new Error("a scheduled job's attempts must be a whole number");
  const identity = jsonObjectText(doc, "identity", false);
  if (identity !== null && typeof JSON.parse(identity).userId !== "string")
    throw new Error("a scheduled job's identity needs a userId");
  return {
    path,
    kind,
    args: jsonObjectText(doc, "args", true)!,
    runAt,
    attempts,
    identity,
    service: optionalText(doc, "service"),
    userId: optionalText(doc, "userId"),
    targetShard: optionalText(doc, "targetShard"),
    plan: jsonObjectText(doc, "plan", false),
    error: optionalText(doc, "error"),
  };
}

/**
 * How a shard's unfinished jobs travel in its backups (the shape
 * backups/system-tables.ts asks for): each pending job, and each action
 * whose attempt was running, is a line of table `_svc_scheduled`; a
 * restore writes them back as `pending`, in the restore's transaction,
 * and the restored shard's alarm runs them when due (a job already due
 * runs at once). Finished jobs are history and stay behind.
 *
 * @example
 * ```ts
 * new ShardImport(ctx.storage, schema, [scheduledJobsBackup]);
 * ```
 */
export const scheduledJobsBackup = {
  table: SCHEDULED_TABLE,
  count(sql: SqlStorage): number {
    ensureScheduledTable(sql);
    return countUnfinished(sql);
  },
  rows(sql: SqlStorage, afterRowid: number, limit: number) {
    ensureScheduledTable(sql);
    return sql.exec<{ rowid: number; _id: string; _creationTime: number; _doc: string }>(
      `SELECT rowid, id AS _id, created_at AS _creationTime,
         json_object('path', path, 'kind', kind, 'args', args, 'runAt', run_at, 'attempts', attempts,
           'identity', identity, 'service', service, 'userId', user_id, 'targetShard', target_shard,
           'plan', plan, 'error', error) AS _doc
       FROM ${SCHEDULED_TABLE} WHERE ${UNFINISHED} AND rowid > ? ORDER BY rowid LIMIT ?`,
      afterRowid,
      limit,
    );
  },
  check: (doc: Record<string, unknown>): string => JSON.stringify(checkJob(doc)),
  restore(sql: SqlStorage, staging: string): void {
    ensureScheduledTable(sql);
    const field = (name: keyof JobFields) => `json_extract(_doc, '$.${name}')`;
    sql.exec(
      `INSERT INTO ${SCHEDULED_TABLE} (id, path, kind, args, run_at, state, attempts, identity, service, user_id, target_shard, plan, error, created_at)
       SELECT _id, ${field("path")}, ${field("kind")}, ${field("args")}, ${field("runAt")}, 'pending', ${field("attempts")},
         ${field("identity")}, ${field("service")}, ${field("userId")}, ${field("targetShard")}, ${field("plan")}, ${field("error")}, _creationTime
       FROM "${staging}" ORDER BY rowid`,
    );
  },
};
