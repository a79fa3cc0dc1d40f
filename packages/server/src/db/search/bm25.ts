/**
 * One word of a search as the scorer sees it: its tokens (a word such as
 * `e-mail` is the phrase `e mail`), whether its last token is a prefix (the
 * search's last word), and its weight (`idf`).
 *
 * @example const phrase: ScoredPhrase = { tokens: ["deploy"], prefix: true, idf: 2.3 };
 */
export interface ScoredPhrase {
  tokens: string[];
  prefix: boolean;
  idf: number;
}

/** FTS5's `bm25()` constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/**
 * A word's weight, as FTS5's `bm25()` computes it: `ln((N - n + 0.5) / (n + 0.5))`
 * for `n` documents holding it among `N`, and a tiny positive weight for a
 * word in more than half the documents (FTS5 clamps the same way).
 *
 * @example inverseDocumentFrequency(1_000_000, 858) // ≈ 7.06: a rare word weighs much
 */
export function inverseDocumentFrequency(documents: number, holding: number): number {
  const idf = Math.log((documents - holding + 0.5) / (holding + 0.5));
  return idf > 0 ? idf : 1e-6;
}

/** How many times `phrase` occurs in `tokens`. */
function occurrences(tokens: string[], phrase: ScoredPhrase): number {
  const last = phrase.tokens.length - 1;
  let count = 0;
  for (let start = 0; start + last < tokens.length; start++) {
    let matches = true;
    for (let i = 0; i <= last && matches; i++) {
      const token = tokens[start + i] as string;
      const wanted = phrase.tokens[i] as string;
      matches = phrase.prefix && i === last ? token.startsWith(wanted) : token === wanted;
    }
    if (matches) count++;
  }
  return count;
}

/**
 * The BM25 score of a document for a search, with FTS5's formula and sign
 * (lower is more relevant, so `ORDER BY score` puts the best first):
 * `-Σ idf · tf·(k1+1) / (tf + k1·(1 - b + b·|d|/avgdl))` over the search's
 * words. svc computes it itself because FTS5's `bm25()` counts every
 * document holding each word on every search, which costs in proportion to
 * the shard (see `phrase-documents.ts`).
 *
 * @example bm25Score(["deploy", "today"], [{ tokens: ["deploy"], prefix: true, idf: 1 }], 4) // ≈ -1.26
 */
export function bm25Score(
  tokens: string[],
  phrases: readonly ScoredPhrase[],
  averageLength: number,
): number {
  const lengthNorm = 1 - B + (B * tokens.length) / (averageLength > 0 ? averageLength : 1);
  let score = 0;
  for (const phrase of phrases) {
    const tf = occurrences(tokens, phrase);
    score += (phrase.idf * (tf * (K1 + 1))) / (tf + K1 * lengthNorm);
  }
  return -score;
}
