import { count, table, verdict } from "./lib/format.ts";
import { RUN_AFTER_GOAL, type SchedulerResult } from "./scenarios/scheduler.ts";

const TITLE = "## 16. Scheduled functions: lateness, drain, the cost of runAfter";

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;

/**
 * BENCHMARKS.md's scheduler section (issue 47): how late due jobs start
 * beside 1, 1,000 and 10,000 pending ones, how fast one shard drains jobs
 * due at once, and what `runAfter` adds to a mutation's CPU against the
 * goal of 10 %.
 *
 * @example schedulerSection(results.scheduler) // "## 16. Scheduled functions: …"
 */
export function schedulerSection(scheduler: SchedulerResult | undefined): string {
  if (scheduler === undefined) return [TITLE, "", "Not measured in this run."].join("\n");
  const [without, withJob] = scheduler.runAfter as [
    SchedulerResult["runAfter"][0],
    SchedulerResult["runAfter"][0],
  ];
  const [loadBefore, loadAfter] = scheduler.load;
  return [
    TITLE,
    "",
    "`ctx.scheduler` in the bench worker's shards (docs/scheduler.md). Lateness: jobs due 100 ms apart, each " +
      "writing when its handler started; from due time to that start, beside jobs due an hour later. Drain: jobs " +
      "all due at the same moment in one shard, from that moment to the last one's start. The cost of `runAfter`: " +
      "the same REST mutation (one insert) with and without one `runAfter(1 h)`, called inside the worker in " +
      `${scheduler.rounds.rounds} alternating rounds of ${scheduler.rounds.calls} calls (bench/lib/cpu-rounds.ts), ` +
      "the workerd CPU per call (worker and shard: one process), the median of per-round ratios. The jobs it " +
      "schedules stay pending, so later rounds count them beside more. " +
      `The machine was shared (1-minute load average ${loadBefore.toFixed(1)} at the start, ` +
      `${loadAfter.toFixed(1)} at the end): judge the CPU ratio, not the times; the per-round ratios spread wide (the quartiles).`,
    "",
    table(
      ["pending beside", "jobs measured", "lateness p50", "lateness p99"],
      scheduler.lateness.map((row) => [
        count(row.pending),
        count(row.jobs),
        `${row.p50Ms} ms`,
        `${row.p99Ms} ms`,
      ]),
    ),
    "",
    table(
      ["measure", "figure", "goal", ""],
      [
        [
          `drain: ${count(scheduler.drain.jobs)} jobs due at once, one shard`,
          `${count(scheduler.drain.jobsPerSecond)} jobs/s (${scheduler.drain.seconds.toFixed(1)} s)`,
          "",
          "",
        ],
        [
          "`runAfter` in a mutation: added CPU per call",
          `${percent(withJob.cost)} (${without.usPerCall.toFixed(0)} → ${withJob.usPerCall.toFixed(0)} µs; ` +
            `quartiles ${percent(withJob.costQuartiles[0])} to ${percent(withJob.costQuartiles[1])})`,
          `≤ ${percent(RUN_AFTER_GOAL)}`,
          verdict(withJob.cost <= RUN_AFTER_GOAL),
        ],
      ],
    ),
  ].join("\n");
}
