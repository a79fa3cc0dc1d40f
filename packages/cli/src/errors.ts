import { defineErrorCodes } from "@svc/server/errors";

/**
 * Every mistake the CLI can name, with the status a server would answer for
 * it (the `svc` bin itself exits 1 for each).
 *
 * @example
 * ```ts
 * cliErrorCodes.codes.BAD_USAGE.status; // 400
 * ```
 */
export const cliErrorCodes = defineErrorCodes("SvcCliError", {
  WRANGLER_MISSING: { status: 500, title: "Wrangler is not installed" },
  WRANGLER_CONFIG_MISSING: { status: 500, title: "Wrangler configuration missing" },
  CRON_TRIGGER_MISSING: { status: 500, title: "Cron trigger missing" },
  QUEUE_CONSUMER_MISSING: { status: 500, title: "Queue consumer missing" },
  SCHEMA_CHANGE_NEEDS_MIGRATION: { status: 400, title: "Schema change needs a migration" },
  ADMIN_TOKEN_MISSING: { status: 401, title: "Admin token missing" },
  ADMIN_UNREACHABLE: { status: 503, title: "Admin API unreachable" },
  ADMIN_REQUEST_FAILED: { status: 502, title: "Admin request failed" },
  BACKUP_NOT_FOUND: { status: 404, title: "Backup not found" },
  BAD_USAGE: { status: 400, title: "Bad usage" },
});

/** Codes of {@link SvcCliError}. */
export type CliErrorCode = keyof typeof cliErrorCodes.codes;

/**
 * A mistake in the user's project that the CLI can name, with its fix. The
 * `svc` bin prints only its message (no stack trace) and exits 1.
 *
 * @example
 * ```ts
 * throw new SvcCliError("WRANGLER_MISSING", "svc: wrangler is not installed … npm install --save-dev wrangler");
 * ```
 */
export class SvcCliError extends cliErrorCodes.Error {
  override readonly name = "SvcCliError";
}
