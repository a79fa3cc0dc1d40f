const ASCII = /^\p{ASCII}*$/u;
const ASCII_SEPARATORS = /[^a-z0-9]+/;
const nonEmpty = (token: string) => token !== "";

/**
 * The words of `text` as the search index's tokenizer (`unicode61
 * remove_diacritics 2`) reads them, in JavaScript: decomposed, marks
 * removed, lower case, split at every character that is not a letter, a
 * digit or a private-use character. svc scores a search's candidates with
 * it (see `bm25.ts`); which documents match is always FTS5's own answer, so
 * a character the two read differently moves a document in the order at
 * worst, never in or out of the results.
 *
 * @example searchTokens("Café au-lait, 2×") // ["cafe", "au", "lait", "2"]
 */
export function searchTokens(text: string): string[] {
  // Most text is ASCII: nothing to decompose, and ASCII letters and digits are its only token characters.
  if (ASCII.test(text)) return text.toLowerCase().split(ASCII_SEPARATORS).filter(nonEmpty);
  return text
    .normalize("NFD")
    .replace(/\p{Mn}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{Co}\p{M}]+/u)
    .filter(nonEmpty);
}
