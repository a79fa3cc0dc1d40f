import { auditOutcome } from "../model/audit-outcome.ts";
import type { DataAuditSink } from "../model/data-audit.ts";
import type { JobSelection } from "../scheduler/admin-view.ts";

/** Ids an audit line names before it says how many more there were. */
const IDS_IN_DETAIL = 20;

/**
 * An open audit record of one operator cancel (`schedule.cancel`): opened by
 * the router before the body is read, given its detail by the handler, and
 * closed with the outcome, so a refused cancel is recorded too.
 */
export interface CancelAudit {
  operator: string;
  /** The shard key, or `*` for a cancel across the registry's shards. */
  shard: string;
  detail: string | null;
  sink: DataAuditSink;
}

/**
 * What a selection named, in words an audit reader can search: the ids (the
 * first 20, then how many more), the filter, or `all`.
 *
 * @example selectionText({ function: "reminders:send", userId: "u1" }) // "function=reminders:send user=u1"
 */
export function selectionText(selection: JobSelection): string {
  const parts: string[] = [];
  const { ids } = selection;
  if (ids !== undefined) {
    const shown = ids.slice(0, IDS_IN_DETAIL).join(", ");
    const more = ids.length > IDS_IN_DETAIL ? ` and ${ids.length - IDS_IN_DETAIL} more` : "";
    parts.push(`ids=[${shown}${more}]`);
  }
  if (selection.function !== undefined) parts.push(`function=${selection.function}`);
  if (selection.userId !== undefined) parts.push(`user=${selection.userId}`);
  if (selection.all === true) parts.push("all");
  return parts.length === 0 ? "nothing named" : parts.join(" ");
}

/**
 * Writes a cancel's audit line: `ok` with the handler's detail, or `error`
 * with the client-safe message of what refused it.
 *
 * @example await closeCancelAudit(record, error) // from serveRoutes' audit hook
 */
export async function closeCancelAudit(record: CancelAudit, error?: unknown): Promise<void> {
  await record.sink({
    operator: record.operator,
    action: "schedule.cancel",
    targetType: "shard",
    targetId: record.shard,
    ...auditOutcome(record.detail, error),
  });
}
