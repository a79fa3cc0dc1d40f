import type { BenchApp } from "./bench-app.ts";
import { median, percentile } from "./load.ts";

/** One variant's figures from {@link cpuRounds}. */
export interface CpuRoundFigures {
  name: string;
  /** Median worker CPU per call, microseconds. */
  usPerCall: number;
  /**
   * 1 − calls per CPU-second against the baseline's (the first variant), as
   * the median over rounds: 0.05 = 5 % fewer calls per second of worker CPU.
   */
  cost: number;
  /** The 25th and 75th percentiles of the per-round costs. */
  costQuartiles: [number, number];
}

/** How the rounds run. */
export interface CpuRoundPlan {
  /** Rounds; each runs every variant once, in an order shuffled round by round. */
  rounds: number;
  /** Calls per variant per round, made one after another inside the worker. */
  calls: number;
}

/** `items` in a random order (Fisher–Yates). */
function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * Compares what a call costs the worker's CPU under several svc workers
 * (`variants`: name and `x-bench-variant`, and a JSON `body` to `POST` the
 * target with, for a mutation), the first being the baseline:
 * each round makes `plan.calls` calls to `target` through each variant inside
 * one request (`GET /bench/loop`, no HTTP or load generator per call) and
 * reads the worker's workerd CPU around it, in nanoseconds. Short rounds put
 * each variant next to the baseline many times, so a machine whose speed
 * drifts by tens of percent from one second to the next still compares like
 * with like; the median over rounds is what counts. The order is shuffled
 * each round: with a fixed rotation every variant would follow the same
 * neighbour, and whatever that neighbour leaves behind (garbage to collect)
 * would be charged to it round after round.
 *
 * @example
 * ```ts
 * const rows = await cpuRounds(app, restUrl, [{ name: "off", variant: "logs-off" }, { name: "on", variant: "plain" }], { rounds: 300, calls: 100 });
 * ```
 */
export async function cpuRounds(
  app: BenchApp,
  target: string,
  variants: readonly { name: string; variant: string; body?: string }[],
  plan: CpuRoundPlan,
): Promise<CpuRoundFigures[]> {
  const perCall = variants.map(() => [] as number[]);
  const loop = ({ variant, body }: { variant: string; body?: string }) =>
    `${app.url}/bench/loop?variant=${variant}&calls=${plan.calls}&target=${encodeURIComponent(target)}` +
    (body === undefined ? "" : `&body=${encodeURIComponent(body)}`);
  // Two warm-up rounds, not counted.
  for (let round = -2; round < plan.rounds; round++) {
    for (const index of shuffled(variants.map((_, index) => index))) {
      const before = await app.workerCpuMs();
      const response = await fetch(loop(variants[index]!));
      const { ok } = (await response.json()) as { ok: number };
      const after = await app.workerCpuMs();
      if (ok !== plan.calls) {
        throw new Error(`${variants[index]!.name}: ${ok} of ${plan.calls} calls succeeded`);
      }
      if (round >= 0) perCall[index]!.push(((after - before) * 1000) / plan.calls);
    }
  }
  const baseline = perCall[0]!;
  return variants.map(({ name }, index) => {
    const costs = perCall[index]!.map((us, round) => 1 - baseline[round]! / us);
    return {
      name,
      usPerCall: median(perCall[index]!),
      cost: median(costs),
      costQuartiles: [percentile(costs, 0.25), percentile(costs, 0.75)],
    };
  });
}
