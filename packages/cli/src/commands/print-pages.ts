/** Where command output goes (stdout by default; tests collect it). */
export type Output = (line: string) => void;

/** The default {@link Output}: one line to the process's stdout. */
export const stdout: Output = (line) => process.stdout.write(`${line}\n`);

/** How many rows a listing asks the admin API for at once. */
const PAGE = 200;

/** One admin listing as the CLI prints it: how to fetch a page, and how a row reads. */
export interface PagedListing<T> {
  /** The table's header line (not printed with `json`). */
  header: string;
  /** What one row is, for the closing count ("3 shards", "1 file"). */
  noun: string;
  /** One JSON object per line instead of the table. */
  json: boolean;
  /** Stop after this many rows; every page otherwise. */
  limit?: number | undefined;
  /** One page from `cursor`, at most `limit` rows, and the next page's cursor. */
  fetch(
    cursor: string | undefined,
    limit: number,
  ): Promise<{ items: T[]; cursor: string | null | undefined }>;
  /** The table row of one item. */
  row(item: T): string;
}

/**
 * Prints an admin listing page by page as the pages arrive (the CLI's `list`
 * commands share it, so paging, `--limit`, `--json` and the closing count
 * behave the same everywhere). Answers how many rows were printed.
 *
 * @example
 * ```ts
 * await printPages({ header: "KEY", noun: "shard", json: false,
 *   fetch: async (cursor, limit) => ({ items: [], cursor: null }), row: (s) => s.key }, stdout);
 * ```
 */
export async function printPages<T>(listing: PagedListing<T>, out: Output): Promise<number> {
  let cursor: string | undefined;
  let printed = 0;
  if (!listing.json) out(listing.header);
  do {
    const remaining = listing.limit === undefined ? PAGE : Math.min(PAGE, listing.limit - printed);
    if (remaining <= 0) break;
    const page = await listing.fetch(cursor, remaining);
    for (const item of page.items) out(listing.json ? JSON.stringify(item) : listing.row(item));
    printed += page.items.length;
    cursor = page.cursor ?? undefined;
  } while (cursor !== undefined);
  if (!listing.json) out(`${printed} ${listing.noun}${printed === 1 ? "" : "s"}`);
  return printed;
}
