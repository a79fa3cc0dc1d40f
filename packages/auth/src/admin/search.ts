/** Longest `LIKE` pattern D1 accepts, in bytes (`SQLITE_LIMIT_LIKE_PATTERN_LENGTH`). */
const D1_LIKE_PATTERN_LIMIT = 50;

/** Most spellings of a term one condition tries; a term with more is {@link foldsFully}'s `false`. */
const MAX_SPELLINGS = 8;

/** Every case spelling of `term`, or `null` when there are more than {@link MAX_SPELLINGS}. */
function allSpellings(term: string): string[] | null {
  let spellings = [""];
  for (const char of term) {
    const lower = char.toLowerCase();
    const upper = char.toUpperCase();
    const cased =
      char > "\u007f" && lower !== upper && [...lower].length === 1 && [...upper].length === 1;
    const forms = cased ? [...new Set([char, lower, upper])] : [char];
    if (spellings.length * forms.length > MAX_SPELLINGS) return null;
    spellings = spellings.flatMap((start) => forms.map((form) => start + form));
  }
  return spellings;
}

/**
 * The spellings of `term` that differ in the case of its letters outside
 * ASCII (`émilie` → `émilie`, `Émilie`): SQLite folds ASCII case in `LIKE`
 * and `lower()` but, without ICU, no other letter's, so a condition tries
 * each. A letter counts when its upper and lower case are one character
 * each (É/é, Ж/ж, Σ/σ); others (ß) are taken as typed. Past
 * {@link MAX_SPELLINGS}, the term as typed, in lower and in upper case.
 *
 * @example
 * ```ts
 * caseSpellings("zoë"); // ["zoë", "zoË"]
 * ```
 */
export function caseSpellings(term: string): string[] {
  return allSpellings(term) ?? [...new Set([term, term.toLowerCase(), term.toUpperCase()])];
}

/**
 * Whether {@link contains} folds every letter of `term` (its case
 * spellings fit {@link MAX_SPELLINGS}: up to three letters outside ASCII);
 * when not, a caller with the search index asks the index instead.
 *
 * @example
 * ```ts
 * foldsFully("émilie"); // true
 * ```
 */
export function foldsFully(term: string): boolean {
  return allSpellings(term) !== null;
}

/**
 * A condition true when `column` contains `term` in any case, with the
 * values to bind: one test per case spelling ({@link caseSpellings}), each
 * `LIKE` when its pattern fits D1's 50-byte cap on `LIKE` patterns (about
 * twice as fast as the alternative on 100,000 rows), `instr(lower(…))` for
 * longer ones (a whole email address). `%`, `_` and `\` in the term match
 * literally.
 *
 * @example
 * ```ts
 * const { sql, binds } = contains(`u."email"`, "Émilie");
 * ```
 */
export function contains(column: string, term: string): { sql: string; binds: string[] } {
  const tests = caseSpellings(term).map((spelling) => {
    const pattern = `%${spelling.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    if (new TextEncoder().encode(pattern).length <= D1_LIKE_PATTERN_LIMIT) {
      return { sql: `${column} LIKE ? ESCAPE '\\'`, bind: pattern };
    }
    return { sql: `instr(lower(${column}), ?) > 0`, bind: asciiLower(spelling) };
  });
  return {
    sql: tests.length === 1 ? tests[0]!.sql : `(${tests.map((test) => test.sql).join(" OR ")})`,
    binds: tests.map((test) => test.bind),
  };
}

/**
 * Lower-cases ASCII letters only, as SQLite's `lower()` does (without ICU):
 * how a spelling is folded to match values read through `lower()`.
 *
 * @example
 * ```ts
 * asciiLower("ÄNN@X"); // "Änn@x"
 * ```
 */
function asciiLower(text: string): string {
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
