import { count, ratio, table, verdict } from "./lib/format.ts";
import type { StudioResult } from "./scenarios/studio.ts";

/** Issue 28's goals: any page of a million documents under 50 ms (p50); "view as" at most 1.5× the user's own read. */
const PAGE_GOAL_MS = 50;
const VIEW_AS_GOAL = 1.5;

const TITLE = "## 2c. Data studio: a million documents, and viewing as a user";

/** BENCHMARKS.md's data studio section (a note when results from before the scenario have none). */
export function studioSection(studio: StudioResult | undefined): string {
  if (studio === undefined) return [TITLE, "", "Not measured in this run."].join("\n");
  const [own, viewAs] = studio.viewAs;
  return [
    TITLE,
    "",
    `\`GET /_svc/admin/data/shards/:key/tables/rows/documents?limit=${studio.pageSize}\` over a table of ` +
      `${count(studio.documents)} documents (seeded in ${studio.seededSeconds} s), through the admin gate, ${40} ` +
      "requests one after another per page. A cursor page seeks to its cursor, so it costs what the first page does.",
    "",
    table(
      ["page", "p50", "p90", "goal", ""],
      studio.pagesMs.map((page) => [
        page.name,
        `${page.p50.toFixed(1)} ms`,
        `${page.p90.toFixed(1)} ms`,
        `p50 < ${PAGE_GOAL_MS} ms`,
        verdict(page.p50 < PAGE_GOAL_MS),
      ]),
    ),
    "",
    "Viewing as a user runs the table's RLS through the same `ctx.db` path as the user's own read: " +
      "`posts:mine` over REST (newest 20 of a channel) against the studio's browse of `posts` by `by_channel`, " +
      "newest first, 20 rows, `asUser` = that user, in a shard with their 50 posts and 100,000 of other users " +
      "(declarative rule). Identity resolution is left out on both sides (a header identity; a lookup that answers `{ userId }`).",
    "",
    table(
      ["target", "req/s (median)", "p50", "p99"],
      [own, viewAs]
        .filter((figures) => figures !== undefined)
        .map((figures) => [
          figures.name,
          count(figures.requestsPerSecond),
          `${figures.p50Ms} ms`,
          `${figures.p99Ms} ms`,
        ]),
    ),
    "",
    table(
      ["measure", "view as / own read", "goal", ""],
      [
        [
          "p50 latency",
          ratio(studio.viewAsLatencyRatio),
          `≤ ${ratio(VIEW_AS_GOAL)}`,
          verdict(studio.viewAsLatencyRatio <= VIEW_AS_GOAL),
        ],
        [
          "time per read (1 / throughput ratio)",
          ratio(studio.viewAsThroughputRatio),
          `≤ ${ratio(VIEW_AS_GOAL)}`,
          verdict(studio.viewAsThroughputRatio <= VIEW_AS_GOAL),
        ],
      ],
    ),
  ].join("\n");
}
