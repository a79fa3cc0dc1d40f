/** Longest `LIKE` pattern D1 accepts, in bytes (`SQLITE_LIMIT_LIKE_PATTERN_LENGTH`). */
const D1_LIKE_PATTERN_LIMIT = 50;

/**
 * A condition true when `column` contains `term`, ignoring ASCII case, with
 * the value to bind. `LIKE` when the pattern fits D1's 50-byte cap on `LIKE`
 * patterns (about twice as fast as the alternative on 100,000 rows),
 * `instr(lower(…))` for longer terms (a whole email address); both fold ASCII
 * case only. `%`, `_` and `\` in the term match literally.
 *
 * @example
 * ```ts
 * const { sql, bind } = contains(`u."email"`, "ann@");
 * ```
 */
export function contains(column: string, term: string): { sql: string; bind: string } {
  const pattern = `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  if (new TextEncoder().encode(pattern).length <= D1_LIKE_PATTERN_LIMIT) {
    return { sql: `${column} LIKE ? ESCAPE '\\'`, bind: pattern };
  }
  return { sql: `instr(lower(${column}), ?) > 0`, bind: asciiLower(term) };
}

/**
 * Lower-cases ASCII letters only, as SQLite's `lower()` does (without ICU):
 * how a term is folded to match values stored through `lower()`.
 *
 * @example
 * ```ts
 * asciiLower("ÄNN@X"); // "Änn@x"
 * ```
 */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (char) => char.toLowerCase());
}

/**
 * A condition matching a comma-separated role value (`"admin,support"`) that
 * includes a role, for better-auth's multi-role strings. Bind
 * {@link rolePattern}'s value.
 *
 * @example
 * ```ts
 * `${roleMatch(`u."role"`)}`; // bound to rolePattern("admin")
 * ```
 */
export function roleMatch(column: string): string {
  return `instr(',' || REPLACE(${column}, ' ', '') || ',', ?) > 0`;
}

/**
 * The bound value of {@link roleMatch}.
 *
 * @example
 * ```ts
 * rolePattern("admin"); // ",admin,"
 * ```
 */
export function rolePattern(role: string): string {
  return `,${role},`;
}
