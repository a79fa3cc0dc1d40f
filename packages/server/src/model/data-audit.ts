/**
 * Every action of `createWorker`'s own admin routes the audit trail
 * records (under `/_svc/admin/data/`, running a cron job now, canceling
 * scheduled jobs, and an operator's file uploads and deletes). `@svc/auth` accepts these in `GET
 * /_svc/admin/auth/audit?action=` and shows them on the dashboard's Audit page.
 *
 * @example DATA_AUDIT_ACTIONS.includes("shard.delete") // true
 */
export const DATA_AUDIT_ACTIONS = [
  "shard.delete",
  "shard.export",
  "shard.import",
  "shard.backup",
  "shard.restore",
  "shard.rewind",
  // A migration started (or dry-run) over the registry's shards.
  "migration.run",
  // The data studio (studio/contract.ts): operator edits and procedure runs.
  "document.insert",
  "document.update",
  "document.replace",
  "document.delete",
  "document.bulk",
  "procedure.run",
  // The SQL console: one statement, read-only or written, with its text.
  "shard.sql",
  // A cron job run now by an operator (/_svc/admin/crons/:job/run), beside its schedule.
  "cron.run",
  // Scheduled jobs canceled by an operator (/_svc/admin/schedules/), one shard's or across shards.
  "schedule.cancel",
  // A file stored or deleted by an operator (/_svc/admin/files/shards/:key), target its shard.
  "file.upload",
  "file.delete",
] as const;

/** One of {@link DATA_AUDIT_ACTIONS}. */
export type DataAuditAction = (typeof DATA_AUDIT_ACTIONS)[number];

/** What a data action was done to. */
export type DataAuditTargetType = "shard" | "migration" | "cron";

/** One data action for the audit trail: who, what, to which shard, with what outcome. */
export interface DataAuditEntry {
  /** The name of the admin token used. */
  operator: string;
  action: DataAuditAction;
  targetType: DataAuditTargetType;
  /** The shard key (`*` for a cancel across shards), the migration's name, or the cron job's name. */
  targetId: string;
  outcome: "ok" | "error";
  /** What happened (`"1200 documents deleted"`) or, for an error, its client-safe message. */
  detail: string | null;
}

/** Where data actions are recorded. */
export type DataAuditSink = (entry: DataAuditEntry) => Promise<void>;

/**
 * The sink `createWorker` uses: the admin surface's audit trail when it has
 * one (`createAuthAdmin` from `@svc/auth`), else one JSON line per action on
 * the console (Workers Logs), so an app without `@svc/auth` still keeps a
 * record. A failing sink is logged, never turned into a failed action: the
 * action already happened.
 *
 * @example const audit = dataAuditSink(options.authAdmin?.recordDataAction);
 */
export function dataAuditSink(record: DataAuditSink | undefined): DataAuditSink {
  return async (entry) => {
    try {
      if (record !== undefined) await record(entry);
      else console.log(JSON.stringify({ svc: "audit", at: new Date().toISOString(), ...entry }));
    } catch (error) {
      console.error(`svc: could not record ${entry.action} in the audit trail`, error);
    }
  };
}
