/** Codes of {@link SvcCliError}. */
export type CliErrorCode =
  | "WRANGLER_MISSING"
  | "WRANGLER_CONFIG_MISSING"
  | "CRON_TRIGGER_MISSING"
  | "QUEUE_CONSUMER_MISSING"
  | "ADMIN_TOKEN_MISSING"
  | "ADMIN_UNREACHABLE"
  | "ADMIN_REQUEST_FAILED"
  | "BAD_USAGE";

/**
 * A mistake in the user's project that the CLI can name, with its fix. The
 * `svc` bin prints only its message (no stack trace) and exits 1.
 *
 * @example
 * ```ts
 * throw new SvcCliError("WRANGLER_MISSING", "svc: wrangler is not installed … npm install --save-dev wrangler");
 * ```
 */
export class SvcCliError extends Error {
  override readonly name = "SvcCliError";
  readonly code: CliErrorCode;

  constructor(code: CliErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
