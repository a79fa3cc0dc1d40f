import { sqlTokens } from "./one-statement.ts";

/** Pragmas whose argument only says what to read (`PRAGMA table_info(t_notes)`). */
const READ_WITH_ARGUMENT = new Set([
  "foreign_key_check",
  "foreign_key_list",
  "index_info",
  "index_list",
  "index_xinfo",
  "integrity_check",
  "quick_check",
  "table_info",
  "table_list",
  "table_xinfo",
]);

/**
 * Whether `text` is a `PRAGMA` that sets a value: `PRAGMA x = v`, or
 * `PRAGMA x(v)` for a pragma other than those whose argument only says what
 * to read. SQLite applies a flag pragma's value (`case_sensitive_like`,
 * `recursive_triggers`, …) while it compiles the statement, before anything
 * runs and outside any transaction, so the console's read-only mode, which
 * compiles a statement to see whether it writes, refuses such a text first.
 *
 * @example pragmaSetsValue("PRAGMA case_sensitive_like = ON") // true
 * @example pragmaSetsValue("PRAGMA table_info(t_notes)") // false
 */
export function pragmaSetsValue(text: string): boolean {
  const tokens = sqlTokens(text);
  if (tokens[0] !== "pragma") return false;
  if (tokens.includes("=")) return true;
  const open = tokens.indexOf("(");
  if (open < 0) return false;
  return !READ_WITH_ARGUMENT.has(tokens[open - 1] ?? "");
}
