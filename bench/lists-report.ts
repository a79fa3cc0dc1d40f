import { ratio, table } from "./lib/format.ts";
import { cpuOf, LOAD_HEADER, loadRows } from "./lib/load-table.ts";
import { LIST_HONO, LIST_REST, type ListsResult } from "./scenarios/lists.ts";

const TITLE = "## 1b. A long answer: 100 rows";

/**
 * BENCHMARKS.md's section 1b: svc's REST list of 100 rows against the
 * hand-written route's, CPU per request first (what grows with an answer's
 * length, where section 1 measures the fixed cost of a call).
 *
 * @example
 * ```ts
 * listsSection(results.lists);
 * ```
 */
export function listsSection(lists: ListsResult | undefined): string {
  if (lists === undefined) {
    return [TITLE, "", "Not measured in this run (`npm run bench -- --merge lists` adds it)."].join(
      "\n",
    );
  }
  const { figures, cpuVsHandWritten, throughputVsHandWritten } = lists;
  return [
    TITLE,
    "",
    "The first 100 rows of a Durable Object's SQLite, through svc REST (`GET /_svc/rest/rows/list`, " +
      '`ctx.db.query("rows").take(100)`) and through the hand-written Hono route (`GET /hono/rows`: one ' +
      "`SELECT … LIMIT 100`, `toArray`, `c.json`). Section 1 measures what a call costs whatever it answers; " +
      "this one what grows with the answer: reading and decoding the rows (svc keeps each document's fields " +
      "as JSON), checking them, encoding them and carrying them from the shard to the worker. Since " +
      "2026-12-05 svc's shard answers a REST or RPC call's JSON text, one string across the Durable Object " +
      "call instead of 100 objects the worker then encoded (0.89× the worker's CPU per call for this list, " +
      "measured in one worker before the change), and a query scans its rows without a promise per row " +
      "(1.34× the hand-written route before, 1.24× after, in two runs of this scenario an hour apart). What " +
      "is left per row: the cursor's `next` for each row where the hand-written route makes one `toArray` " +
      "call, and each document's `JSON.parse`.",
    "",
    table([...LOAD_HEADER, "rounds (req/s)"], loadRows(figures, true)),
    "",
    table(
      ["ratio (median of per-round ratios)", "measured"],
      [
        [
          "svc REST / hand-written, CPU per request",
          cpuVsHandWritten === null ? "?" : ratio(cpuVsHandWritten),
        ],
        ["svc REST / hand-written, throughput", ratio(throughputVsHandWritten)],
      ],
    ),
    "",
    `Workerd CPU per request: ${cpuOf(figures, LIST_REST)} for svc, ${cpuOf(figures, LIST_HONO)} for the ` +
      "hand-written route.",
  ].join("\n");
}
