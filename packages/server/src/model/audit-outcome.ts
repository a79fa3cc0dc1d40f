// Apart from data-audit.ts, which the dashboard's bundle loads through the route contract.
import { INTERNAL_MESSAGE } from "../errors/normalize.ts";
import { SvcError } from "../errors/svc-error.ts";
import type { DataAuditEntry } from "./data-audit.ts";

/**
 * An audit line's outcome and detail once its action is over: `ok` with what
 * the handler said it did, or `error` with the client-safe message of what
 * refused it (never an internal error's text), so a refused attempt is
 * recorded as plainly as a done one.
 *
 * @example await sink({ operator, action: "cron.run", targetType: "cron", targetId: job, ...auditOutcome(detail, error) })
 */
export function auditOutcome(
  detail: string | null,
  error?: unknown,
): Pick<DataAuditEntry, "outcome" | "detail"> {
  if (error === undefined) return { outcome: "ok", detail };
  const safe = error instanceof SvcError && error.code !== "INTERNAL";
  return { outcome: "error", detail: safe ? error.message : INTERNAL_MESSAGE };
}
