import { REVOCATION_TABLE } from "./log-schema.ts";

/**
 * One row of the revocation log: what changed (`kind`: `"session"`,
 * `"user"`, or another credential kind a log writes) and its id.
 *
 * @example
 * ```ts
 * const revocation: Revocation = { seq: 42, kind: "session", id: "s1" };
 * ```
 */
export interface Revocation {
  seq: number;
  kind: string;
  id: string;
}

/**
 * One read of the log: its bounds (`null` when empty) and the rows after the
 * reader's cursor, oldest first, at most {@link REVOCATION_READ_LIMIT}.
 *
 * @example
 * ```ts
 * const read: RevocationRead = { oldest: 40, newest: 42, entries: [{ seq: 42, kind: "user", id: "u1" }] };
 * ```
 */
export interface RevocationRead {
  oldest: number | null;
  newest: number | null;
  entries: Revocation[];
}

/**
 * Reads the log from after `cursor` (`null`: only its bounds, for a first
 * read). What a {@link RevocationFeed} polls; a test or another store can
 * supply its own.
 *
 * @example
 * ```ts
 * const reader: RevocationReader = d1RevocationReader(env.DB);
 * const { newest } = await reader(null);
 * ```
 */
export type RevocationReader = (cursor: number | null) => Promise<RevocationRead>;

/**
 * Most rows one read returns. A reader that gets this many may have missed
 * more, so the feed then drops everything instead of evicting one by one.
 *
 * @example
 * ```ts
 * if (read.entries.length === REVOCATION_READ_LIMIT) dropEverything();
 * ```
 */
export const REVOCATION_READ_LIMIT = 512;

/**
 * The {@link RevocationReader} of svc's D1 revocation log (`svc_revocation`):
 * one D1 batch of two indexed reads (the bounds, from the primary key's
 * ends, and the rows after the cursor). A plain binding reads D1's primary
 * even where read replication is on, which is what a revocation check
 * needs: a replica may lag.
 *
 * @example
 * ```ts
 * const feed = new RevocationFeed(d1RevocationReader(env.DB), { withinMs: 500 });
 * ```
 */
export function d1RevocationReader(db: D1Database): RevocationReader {
  const table = `"${REVOCATION_TABLE}"`;
  const bounds = `SELECT min("seq") AS oldest, max("seq") AS newest FROM ${table}`;
  const after = `SELECT "seq", "kind", "id" FROM ${table} WHERE "seq" > ? ORDER BY "seq" LIMIT ${REVOCATION_READ_LIMIT}`;
  return async (cursor) => {
    const statements = [db.prepare(bounds)];
    if (cursor !== null) statements.push(db.prepare(after).bind(cursor));
    const [limits, rows] = await db.batch<Record<string, unknown>>(statements);
    const edge = limits?.results[0] ?? {};
    return {
      oldest: edge.oldest === null || edge.oldest === undefined ? null : Number(edge.oldest),
      newest: edge.newest === null || edge.newest === undefined ? null : Number(edge.newest),
      entries: (rows?.results ?? []).map((row) => ({
        seq: Number(row.seq),
        kind: String(row.kind),
        id: String(row.id),
      })),
    };
  };
}
