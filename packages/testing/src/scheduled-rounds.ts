import { SvcError } from "@svc/server";
import type { ScheduledEndpoint } from "@svc/server/internal";

/** Rounds `finishAllScheduled` runs before it gives up. */
export const MAX_ROUNDS = 100;

/**
 * Runs a shard's jobs due by `until` in rounds until a round runs none, and
 * answers how many ran (`finishAllScheduled`). Each round is one
 * `runScheduled`: the jobs stored when it began, each once, so the jobs they
 * schedule run in the next round. A job that keeps scheduling another (one
 * that runs again a minute after each run) never lets that happen: after
 * {@link MAX_ROUNDS} rounds the run is refused with `CONFLICT` rather than
 * left to hang the test.
 *
 * @example await runRounds(stub as unknown as ScheduledEndpoint, Number.MAX_SAFE_INTEGER)
 */
export async function runRounds(shard: ScheduledEndpoint, until: number): Promise<number> {
  let ran = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const now = await shard.runScheduled(until);
    if (now === 0) return ran;
    ran += now;
  }
  throw new SvcError(
    "CONFLICT",
    `@svc/testing: scheduled jobs were still due after ${MAX_ROUNDS} rounds (${ran} runs): a job keeps scheduling another, such as one that runs again with runAfter(60_000) at the end of each run, so finishAllScheduled() never finishes. Step such a job with t.runScheduledWithin(ms): one round per call, each due job once.`,
    { data: { reason: "rounds", max: MAX_ROUNDS } },
  );
}
