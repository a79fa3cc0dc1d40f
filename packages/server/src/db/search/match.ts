import { SvcError } from "../../errors/svc-error.ts";
import { MAX_SEARCH_TERMS, MAX_SEARCH_TEXT } from "../../schema/search-index.ts";
import { searchTokens } from "./tokens.ts";

/** A control character (U+0000–U+001F, U+007F) as a space: a word separator. */
function controlAsSpace(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f ? " " : char;
}

/**
 * The words of what a user typed, checked: split on white space (control
 * characters count as white space).
 *
 * @example searchWords("  deploy\tfri ") // ["deploy", "fri"]
 * @throws SvcError BAD_REQUEST for empty text, text over {@link MAX_SEARCH_TEXT}
 * characters or more than {@link MAX_SEARCH_TERMS} words.
 */
export function searchWords(text: unknown): string[] {
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
  return words;
}

/**
 * One word as an FTS5 string: quoted (a `"` inside doubled), so `"`, `*`,
 * `-`, `:`, `(`, `NEAR`, `AND`, `OR`, `NOT` are searched as text and never
 * read as query syntax; `prefix` adds `*`. A word the tokenizer finds
 * nothing in (`-`, `*`) is an empty phrase, which FTS5 ignores.
 *
 * @example quotedWord('"hi"', false) // '"""hi"""'
 */
export function quotedWord(word: string, prefix: boolean): string {
  return `"${word.replaceAll('"', '""')}"${prefix ? "*" : ""}`;
}

/**
 * One word of a search: its FTS5 string, its tokens (what the scorer looks
 * for, see `bm25.ts`), and whether it is a prefix (the last word).
 *
 * @example const phrase: SearchPhrase = { match: '"deploy"*', tokens: ["deploy"], prefix: true };
 */
export interface SearchPhrase {
  match: string;
  tokens: string[];
  prefix: boolean;
}

/**
 * Turns what a user typed into the words of an FTS5 query that means "all
 * these words, the last one as a prefix" (see {@link searchWords},
 * {@link quotedWord}); joined with spaces, their `match` strings are the query.
 *
 * @example searchPhrases('say "hi" NEAR(x').map((p) => p.match) // ['"say"', '"""hi"""', '"NEAR(x"*']
 * @throws SvcError BAD_REQUEST as {@link searchWords} does.
 */
export function searchPhrases(text: unknown): SearchPhrase[] {
  const words = searchWords(text);
  return words.map((word, index) => {
    const prefix = index === words.length - 1;
    return { match: quotedWord(word, prefix), tokens: searchTokens(word), prefix };
  });
}
