import { SvcError } from "../../errors/svc-error.ts";
import { MAX_SEARCH_TERMS, MAX_SEARCH_TEXT } from "../../schema/search-index.ts";

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
  const words = text.split(/\s+/u).filter((word) => word !== "");
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
