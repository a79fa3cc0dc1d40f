/**
 * Matches of one word read to weigh it: a word with fewer is counted
 * exactly, a word with more is estimated from how densely these newest
 * matches sit among the newest documents. 1,000 keeps the read near a
 * millisecond however common the word is (a word in 90 % of a million notes
 * cost `bm25()` over a second to count, BENCHMARKS.md §2d).
 *
 * @example `ORDER BY rowid DESC LIMIT ${PHRASE_SAMPLE}`
 */
export const PHRASE_SAMPLE = 1_000;

/**
 * What BM25 needs to know about the whole index: how many documents it
 * holds and their average length in words.
 *
 * @example const { documents, averageLength } = indexTotals(sql, "s_notes__search_body__1x");
 */
export interface IndexTotals {
  documents: number;
  averageLength: number;
}

/** Reads one SQLite varint at `offset`: its value and the offset after it. */
function readVarint(bytes: Uint8Array, offset: number): [value: number, next: number] {
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const byte = bytes[offset + i] ?? 0;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, offset + i + 1];
  }
  return [value * 256 + (bytes[offset + 8] ?? 0), offset + 9];
}

/**
 * The index's document count and average length, from the record FTS5
 * keeps them in (row 1 of `<index>_data`: the number of documents, then the
 * words of each column, as varints), so reading them costs one row.
 *
 * @example indexTotals(sql, "s_notes__search_body__1x") // { documents: 1_000_000, averageLength: 30 }
 */
export function indexTotals(sql: SqlStorage, fts: string): IndexTotals {
  const row = sql
    .exec<{ block: ArrayBuffer | null }>(`SELECT block FROM "${fts}_data" WHERE id = 1`)
    .toArray()[0];
  if (!row?.block) return { documents: 0, averageLength: 0 };
  const bytes = new Uint8Array(row.block);
  const [documents, next] = readVarint(bytes, 0);
  const [words] = readVarint(bytes, next);
  return { documents, averageLength: documents > 0 ? words / documents : 0 };
}

/**
 * How many documents of the index match `match` (one word of a search): the
 * exact count up to {@link PHRASE_SAMPLE}; beyond, the density of the
 * newest matches over the table's rowids, `sample · span / (newest rowid −
 * rowid of the sample's oldest match + 1)`, kept within [sample, documents].
 * On a table written in order this is what a full count would say, within
 * the word's variation in time; it weighs a word by how common it is
 * lately, which a full count (all FTS5 offers) spends the whole doclist on.
 *
 * @example phraseDocuments(sql, fts, "notes", '"w4000"', 1_000_000) // 858 (exact)
 */
export function phraseDocuments(
  sql: SqlStorage,
  fts: string,
  table: string,
  match: string,
  documents: number,
): number {
  const sample = sql
    .exec<{ found: number; oldest: number | null }>(
      `SELECT count(*) AS found, min(rowid) AS oldest FROM (SELECT rowid FROM "${fts}" WHERE "${fts}" MATCH ? ORDER BY rowid DESC LIMIT ${PHRASE_SAMPLE})`,
      match,
    )
    .one();
  if (sample.found < PHRASE_SAMPLE || sample.oldest === null) return sample.found;
  const { newest, first } = sql
    .exec<{ newest: number; first: number }>(
      `SELECT (SELECT max(rowid) FROM "t_${table}") AS newest, (SELECT min(rowid) FROM "t_${table}") AS first`,
    )
    .one();
  const estimate = (PHRASE_SAMPLE * (newest - first + 1)) / (newest - sample.oldest + 1);
  return Math.round(Math.min(documents, Math.max(PHRASE_SAMPLE, estimate)));
}
