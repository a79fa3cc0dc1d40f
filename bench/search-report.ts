import { count, ratio, table, verdict } from "./lib/format.ts";
import { LOAD_HEADER, loadRows } from "./lib/load-table.ts";
import type { SearchResult } from "./scenarios/search.ts";

/** Issue 49's goal: a search's p50 under 20 ms at a million documents. */
const P50_GOAL_MS = 20;

const TITLE = "## 2d. Text search";

/** A p50 and, when measured, the CPU per search beside it. */
const withCpu = (p50Ms: number, cpuMs: number | undefined) =>
  cpuMs === undefined ? `${p50Ms.toFixed(1)} ms` : `${p50Ms.toFixed(1)} ms, ${cpuMs.toFixed(1)} ms`;

/** BENCHMARKS.md's search section (a note when results from before the scenario have none). */
export function searchSection(search: SearchResult | undefined): string {
  if (search === undefined) return [TITLE, "", "Not measured in this run."].join("\n");
  const texts = search.latency[0]?.byText.map((row) => row.text) ?? [];
  const { machine } = search;
  return [
    TITLE,
    "",
    ...(machine === undefined
      ? []
      : [
          `Measured apart from the other sections (\`npm run bench -- search\`, ${machine.date}, ${machine.cpu}, ${machine.cores} cores), ` +
            "on a machine with no other work running: compare the rows of this section with each other.",
          "",
        ]),
    "`notes:search` over REST (`withSearchIndex`, 10 most relevant), one request at a time, in a shard of " +
      "notes of 30 words (~200 characters) drawn from 10,000 words with a skew like text's (`w0` most " +
      `common); ${search.latency[0]?.searches ?? 0} searches per size over ${texts.map((text) => `\`${text}\``).join(", ")} ` +
      "(the last word of each is a prefix). Notes are stored through the table's triggers, so the index is filled as writes fill it.",
    "",
    table(
      ["documents", "p50", "p99", "goal", "", "CPU / search", "seeded in"],
      search.latency.map((row) => [
        count(row.documents),
        `${row.p50Ms.toFixed(1)} ms`,
        `${row.p99Ms.toFixed(1)} ms`,
        row.documents >= 1_000_000 ? `p50 < ${P50_GOAL_MS} ms` : "",
        row.documents >= 1_000_000 ? verdict(row.p50Ms < P50_GOAL_MS) : "",
        row.cpuMsPerSearch === undefined ? "" : `${row.cpuMsPerSearch.toFixed(1)} ms`,
        `${row.seedSeconds.toFixed(1)} s`,
      ]),
    ),
    "",
    "CPU / search is the workerd process's user+system time over the searches, divided by them: what a search " +
      "costs whatever else shares the machine; the latency includes waiting for a core.",
    "",
    "By search text (p50). How many notes each text matches (the last word as a prefix, counted with FTS5 over the " +
      "same notes): `w0` 90.4 % (904,111 of 1,000,000), `w40` (and `w400`…`w4099`) 21.4 %, `w4000` 0.09 % (858), " +
      "`w3 w75` 6.2 %, `w12` (111 words) 53.7 %: mostly words far more common than what users type, the worst case " +
      "for a search that must rank. svc ranks the newest 1,000 matches the caller may see and weighs each word from at " +
      'most its 1,000 newest matches (docs/search.md, "How a search is ranked"); the prefix lists of 2 to 4 characters ' +
      "make the last word's matches a read of one list.",
    "",
    table(
      ["text", ...search.latency.map((row) => `${count(row.documents)}: p50, CPU`)],
      [
        ...texts.map((text) => [
          `\`${text}\``,
          ...search.latency.map((row) => {
            const found = row.byText.find((entry) => entry.text === text);
            return found === undefined ? "" : withCpu(found.p50Ms, found.cpuMs);
          }),
        ]),
        [
          "floor: `zq` (no note holds it; not in the figures above)",
          ...search.latency.map((row) =>
            row.floor ? withCpu(row.floor.p50Ms, row.floor.cpuMs) : "",
          ),
        ],
      ],
    ),
    "",
    "What a search index adds to a write: `notes:add` (one insert of ~10 words) into the searched table " +
      "against the same insert into a table without a search index, same rounds:",
    "",
    table(LOAD_HEADER, loadRows(search.inserts)),
    "",
    `Insert throughput with the index: ${ratio(search.insertRatio)} of without; CPU per insert: ` +
      `${search.insertCpuRatio === null ? "n/a" : ratio(search.insertCpuRatio)}.`,
  ].join("\n");
}
