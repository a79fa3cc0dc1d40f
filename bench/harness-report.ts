import { table } from "./lib/format.ts";
import type { HarnessFigure, HarnessResult } from "./scenarios/harness.ts";

const TITLE = "## 14. Test harness (`@svc/testing`)";

const ms = (figure: HarnessFigure) => [`${figure.medianMs} ms`, `${figure.p90Ms} ms`];

/**
 * BENCHMARKS.md's test harness section (a note when the last full run had
 * no harness scenario yet), in its own file as the API keys' is.
 *
 * @example harnessSection(results.harness) // "## 14. Test harness …"
 */
export function harnessSection(harness: HarnessResult | undefined): string {
  if (harness === undefined) {
    return [TITLE, "", "Not measured in this run (`npm run bench -- harness` prints it)."].join(
      "\n",
    );
  }
  const { machine } = harness;
  return [
    TITLE,
    "",
    ...(machine === undefined
      ? []
      : [
          `Measured apart from the other sections (\`npm run bench -- harness\`, ${machine.date}, ${machine.cpu}, ${machine.cores} cores), ` +
            "while other test suites shared the machine: compare the rows of this section with each other.",
          "",
        ]),
    `What a test pays for the harness, in workerd under \`@cloudflare/vitest-plugin\` (${harness.rounds} ` +
      "interleaved rounds, packages/testing/test/bench/overhead.bench.ts): a test's typical work, one mutation " +
      "and one query as a user, through a fresh `createTest()` (a new shard Durable Object with its schema), " +
      "against the same two calls sent straight to a running shard over JS RPC. workerd's clock moves in 1 ms steps.",
    "",
    table(
      ["step", "median", "p90"],
      [
        ["two calls straight to a running shard (baseline)", ...ms(harness.direct)],
        ["the same two calls through a harness on a running shard", ...ms(harness.warmHarness)],
        ["a test: `createTest()` + the two calls in its fresh shard", ...ms(harness.freshTest)],
        ["`createTest().run(...)` seeding one document", ...ms(harness.freshRun)],
      ],
    ),
    "",
    `Per-test overhead (fresh test − baseline, medians): **${harness.overheadMs} ms**, almost all of it the new ` +
      "shard (its object and schema); the harness's own work (identity, JSON codec both ways) does not show " +
      "beside the calls.",
  ].join("\n");
}
