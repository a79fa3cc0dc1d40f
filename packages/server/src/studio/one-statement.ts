/**
 * Where a quoted run that starts at `start` (a string or a quoted name)
 * ends, past its closing quote, by SQLite's rules (a doubled quote is one
 * quote inside the run).
 *
 * @example afterQuoted("'it''s' x", 0, "'") // 7
 */
export function afterQuoted(text: string, start: number, quote: string): number {
  let at = start + 1;
  for (;;) {
    const end = text.indexOf(quote, at);
    if (end < 0) return text.length;
    // A doubled quote is one quote inside the run.
    if (text[end + 1] !== quote) return end + 1;
    at = end + 2;
  }
}

/**
 * Where a comment that starts at `start` ends, or `start` when none starts
 * there (`--` to the end of the line, or a C-style comment).
 *
 * @example afterComment("-- note\nSELECT 1", 0) // 8
 */
export function afterComment(text: string, start: number): number {
  if (text.startsWith("--", start)) {
    const end = text.indexOf("\n", start);
    return end < 0 ? text.length : end + 1;
  }
  if (text.startsWith("/*", start)) {
    const end = text.indexOf("*/", start + 2);
    return end < 0 ? text.length : end + 2;
  }
  return start;
}

/**
 * Whether `text` holds one SQL statement (a trailing `;`, spaces and comments
 * allowed). Only where statements end is read, by SQLite's own lexical rules
 * (strings, quoted names, comments); what a statement does is SQLite's to
 * say. The SQL console needs it before anything runs: workerd runs every
 * statement of a text, and leaves an earlier one that answers rows in
 * progress, which no transaction can then end.
 *
 * @example
 * ```ts
 * isOneStatement("SELECT ';' AS semicolon; -- done"); // true
 * isOneStatement("SELECT 1; DELETE FROM t_notes"); // false
 * ```
 */
export function isOneStatement(text: string): boolean {
  let ended = false;
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    const afterNote = afterComment(text, at);
    if (afterNote > at) {
      at = afterNote;
      continue;
    }
    if (ended) return false;
    if (char === ";") ended = true;
    if (char === "'" || char === '"' || char === "`") at = afterQuoted(text, at, char);
    else if (char === "[") at = afterQuoted(text, at, "]");
    else at++;
  }
  return true;
}
