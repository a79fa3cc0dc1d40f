import type { DataAuditEntry } from "@svc/server";
import type { AdminEnvironment } from "../environment.ts";
import { AuditScope } from "./trail.ts";

/**
 * Writes a data action of `createWorker`'s `/_svc/admin/data/` routes (shard
 * deletion, export, import, backup, restore) into the audit trail, so `GET
 * audit` and the dashboard's Audit page show it beside user actions.
 *
 * @example
 * ```ts
 * await recordDataAction(environment, {
 *   operator: "alice", action: "shard.delete", targetType: "shard", targetId: "room-1",
 *   outcome: "ok", detail: "12 documents deleted",
 * });
 * ```
 */
export async function recordDataAction(
  environment: AdminEnvironment,
  entry: DataAuditEntry,
): Promise<void> {
  const scope = new AuditScope(environment, entry.operator, entry.action, {
    targetType: entry.targetType,
    targetId: entry.targetId,
    userId: null,
  });
  scope.detail = entry.detail;
  if (entry.outcome === "ok") await scope.writeOk();
  else await scope.writeError(entry.detail);
}
