import { SvcError } from "../../errors/svc-error.ts";
import { MAX_SEARCH_TERMS, MAX_SEARCH_TEXT } from "../../schema/search-index.ts";

/** A control character (U+0000–U+001F, U+007F) as a space: a word separator. */
function controlAsSpace(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f ? " " : char;
}

/**
 * Turns what a user typed into an FTS5 query that means "all these words,
 * the last one as a prefix". Every word is quoted as an FTS5 string (a `"`
 * inside doubled), so `"`, `*`, `-`, `:`, `(`, `NEAR`, `AND`, `OR`, `NOT`
 * are searched as text and never read as query syntax; a word the tokenizer
 * finds nothing in (`-`, `*`) is an empty phrase, which FTS5 ignores.
 *
 * @example toMatchExpression('say "hi" NEAR(x') // '"say" """hi""" "NEAR(x"*'
 * @throws SvcError BAD_REQUEST for empty text, text over {@link MAX_SEARCH_TEXT}
 * characters or more than {@link MAX_SEARCH_TERMS} words.
 */
export function toMatchExpression(text: unknown): string {
  if (typeof text !== "string") {
    throw new SvcError("BAD_REQUEST", "The search text must be a string.");
  }
  if (text.length > MAX_SEARCH_TEXT) {
    throw new SvcError(
      "BAD_REQUEST",
      `The search text is ${text.length} characters long; at most ${MAX_SEARCH_TEXT} are searched.`,
    );
  }
  // Control characters separate words: FTS5 reads the query as a C string, so a
  // NUL inside a quoted word would end the query mid-string (a syntax error).
  const words = Array.from(text, controlAsSpace)
    .join("")
    .split(/\s+/u)
    .filter((word) => word !== "");
  if (words.length === 0) throw new SvcError("BAD_REQUEST", "The search text is empty.");
  if (words.length > MAX_SEARCH_TERMS) {
    throw new SvcError(
      "BAD_REQUEST",
      `The search text has ${words.length} words; at most ${MAX_SEARCH_TERMS} are searched.`,
    );
  }
  const quoted = words.map((word) => `"${word.replaceAll('"', '""')}"`);
  return `${quoted.join(" ")}*`;
}
