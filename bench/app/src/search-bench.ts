/** Distinct words of the bench's notes (`w0` … `w9999`). */
export const VOCABULARY = 10_000;
/** Words per note: ~200 characters, a chat message or a short note. */
const WORDS_PER_NOTE = 30;
const SEED_BATCH = 50_000;

/**
 * A note's body: words drawn with a skew like text's (word `wK` about
 * `1 / (K + 1)` as often as `w0`), from a seeded generator so every run
 * stores the same notes.
 *
 * @example noteBody(7) // "w3 w0 w812 w41 …"
 */
export function noteBody(seed: number): string {
  let state = (seed * 2_654_435_761) >>> 0 || 1;
  const words: string[] = [];
  for (let i = 0; i < WORDS_PER_NOTE; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    words.push(`w${Math.floor(VOCABULARY ** (state / 0x1_0000_0000)) - 1}`);
  }
  return words.join(" ");
}

/**
 * The search bench's hook: stores notes `from` … `from + count - 1` in
 * `t_notes` as svc lays them out, through the table's own triggers, so the
 * search index is filled as `ctx.db.insert` would fill it (in transactions
 * of 50,000).
 *
 * @example searchBenchHooks(ctx).seedNotes(0, 100_000)
 */
export function searchBenchHooks(state: DurableObjectState): {
  seedNotes(from: number, count: number): void;
} {
  return {
    seedNotes(first, count) {
      const { sql } = state.storage;
      const end = first + count;
      for (let from = first; from < end; from += SEED_BATCH) {
        state.storage.transactionSync(() => {
          for (let i = from; i < Math.min(end, from + SEED_BATCH); i++) {
            const doc = JSON.stringify({ channel: "general", body: noteBody(i) });
            sql.exec(
              'INSERT INTO "t_notes" VALUES (?, ?, ?)',
              `notes_${i.toString(36).padStart(26, "0")}`,
              1_000 + i,
              doc,
            );
          }
        });
      }
    },
  };
}
