import type { CallRecord } from "./record.ts";

/**
 * How a call's console line is written: `"json"`, the whole record on one
 * line for Workers Logs and `wrangler tail` (production); `"text"`, one short
 * line a person reads in a terminal (`svc dev`, test runs).
 */
export type ConsoleFormat = "json" | "text";

/**
 * The worker variable that picks the {@link ConsoleFormat}: `svc dev` sets it
 * to `text` (`svc dev --json` to `json`); unset, or any other value, is `json`.
 */
export const CONSOLE_FORMAT_VAR = "SVC_LOG_FORMAT";

/**
 * The console format an invocation's `env` asks for. Read per invocation (it
 * costs one property read), so a worker and its Durable Objects print alike.
 *
 * @example consoleFormatOf({ SVC_LOG_FORMAT: "text" }) // "text"
 */
export function consoleFormatOf(env: unknown): ConsoleFormat {
  const value =
    typeof env === "object" && env !== null
      ? (env as Record<string, unknown>)[CONSOLE_FORMAT_VAR]
      : undefined;
  return value === "text" ? "text" : "json";
}

/**
 * A record as one short line for a terminal: entry point, method, function or
 * path, status and duration; on failure the error's code and message (never
 * its stack: `svc logs --verbose` and the dashboard have it).
 *
 * @example
 * ```ts
 * textLine(record); // "svc rpc POST messages:send 401 UNAUTHENTICATED 7ms: Sign in to send messages."
 * ```
 */
export function textLine(record: CallRecord): string {
  const parts = ["svc", record.entry];
  // An HTTP route names its method already (`GET /api/items/:id`).
  if (record.method !== null && !record.route.startsWith(`${record.method} `)) {
    parts.push(record.method);
  }
  parts.push(record.route, String(record.status));
  if (record.code !== null) parts.push(record.code);
  parts.push(`${Math.round(record.durationMs)}ms`);
  const line = parts.join(" ");
  if (record.error === null) return line;
  return `${line}: ${record.error.message.replace(/\s*\n\s*/g, " ")}`;
}
