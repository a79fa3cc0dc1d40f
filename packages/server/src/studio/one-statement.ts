/** Where a quoted run that starts at `start` (a string or a quoted name) ends, past its closing quote. */
function afterQuoted(text: string, start: number, quote: string): number {
  let at = start + 1;
  for (;;) {
    const end = text.indexOf(quote, at);
    if (end < 0) return text.length;
    // A doubled quote is one quote inside the run.
    if (text[end + 1] !== quote) return end + 1;
    at = end + 2;
  }
}

/** Where a comment that starts at `start` ends, or `start` when none starts there. */
function afterComment(text: string, start: number): number {
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
 * A SQL text's tokens by SQLite's lexical rules, comments and white space
 * left out: each quoted run (a string, or a name in `"…"`, `` `…` `` or
 * `[…]`) as written, each word (letters, digits, `_`, `$`) lower-cased,
 * any other character on its own. The SQL console reads statements only
 * this far: where they end, and whether a `PRAGMA` sets a value; what a
 * statement does is SQLite's to say.
 *
 * @example sqlTokens("SELECT ';' AS \"a;b\" -- x") // ["select", "';'", "as", "\"a;b\""]
 */
export function sqlTokens(text: string): string[] {
  const tokens: string[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    const afterNote = afterComment(text, at);
    if (afterNote > at) {
      at = afterNote;
    } else if (/\s/.test(char)) {
      at++;
    } else if (char === "'" || char === '"' || char === "`" || char === "[") {
      const end = afterQuoted(text, at, char === "[" ? "]" : char);
      tokens.push(text.slice(at, end));
      at = end;
    } else if (/[A-Za-z0-9_$]/.test(char)) {
      let end = at + 1;
      while (end < text.length && /[A-Za-z0-9_$]/.test(text[end]!)) end++;
      tokens.push(text.slice(at, end).toLowerCase());
      at = end;
    } else {
      tokens.push(char);
      at++;
    }
  }
  return tokens;
}

/**
 * Whether `text` holds one SQL statement (a trailing `;`, spaces and comments
 * allowed): no token follows its first `;` ({@link sqlTokens}). The SQL
 * console needs it before anything runs: workerd runs every statement of a
 * text, and leaves an earlier one that answers rows in progress, which no
 * transaction can then end.
 *
 * @example
 * ```ts
 * isOneStatement("SELECT ';' AS semicolon; -- done"); // true
 * isOneStatement("SELECT 1; DELETE FROM t_notes"); // false
 * ```
 */
export function isOneStatement(text: string): boolean {
  const tokens = sqlTokens(text);
  const end = tokens.indexOf(";");
  return end < 0 || end === tokens.length - 1;
}
