import autocannon from "autocannon";
import { workerdCpuMs } from "./workerd-cpu.ts";

/** One HTTP target of a comparison. */
export interface Target {
  name: string;
  method?: "GET" | "POST";
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** A fresh body per request (e.g. a unique email for sign-up). */
  makeBody?: () => string;
  /** Headers per request on top of `headers` (e.g. a different caller's credentials each time). */
  makeHeaders?: () => Record<string, string>;
  /** A fresh path and query per request (e.g. the next of many shards). */
  makePath?: () => string;
}

/** Median figures of a target over the measured rounds. */
export interface LoadFigures {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx answers seen while measuring (must be 0 for a valid figure). */
  errors: number;
  rounds: number[];
  /** Median workerd CPU per request (ms), when a CPU probe was given. */
  cpuMsPerRequest: number | null;
  /** Workerd CPU per request (ms) of every round, in round order, when a CPU probe was given. */
  cpuRounds?: number[];
  /**
   * Each counter of `plan.counters` per 1,000 requests served (median over
   * rounds), e.g. rate-limit store calls: what a gate does besides its lookup.
   */
  per1000?: Record<string, number>;
}

/** How hard and how long to drive each target. */
export interface LoadPlan {
  connections: number;
  warmupSeconds: number;
  roundSeconds: number;
  rounds: number;
  /** Reads cumulative server CPU (ms); enables `cpuMsPerRequest`. */
  cpuProbe?: () => Promise<number>;
  /** Reads the server's named cumulative counters, around each round; enables `per1000`. */
  counters?: () => Promise<Record<string, number>>;
  /**
   * A full garbage collection of the server's isolate (`BenchApp.settle`),
   * run before each measured window and again inside it once the load
   * stopped: a target's CPU then holds the collection of its own garbage,
   * never one that the target before it left due. Without it a 3 s round
   * could catch a major collection of 150–400 ms or miss it, whichever
   * target allocated the garbage.
   */
  settle?: () => Promise<void>;
}

/**
 * A plan with the rounds and their length taken from `BENCH_ROUNDS` and
 * `BENCH_ROUND_SECONDS` when set: a quick, smaller run of a scenario
 * (`BENCH_ROUNDS=1 BENCH_ROUND_SECONDS=1 npm run bench -- gates`) that proves
 * it works end to end, not a figure to quote.
 *
 * @example
 * ```ts
 * const plan = sized({ connections: 4, warmupSeconds: 2, roundSeconds: 5, rounds: 3 });
 * ```
 */
export function sized(plan: LoadPlan): LoadPlan {
  const rounds = Number(process.env.BENCH_ROUNDS);
  const seconds = Number(process.env.BENCH_ROUND_SECONDS);
  return {
    ...plan,
    ...(rounds > 0 ? { rounds } : {}),
    ...(seconds > 0
      ? { roundSeconds: seconds, warmupSeconds: Math.min(plan.warmupSeconds, seconds) }
      : {}),
  };
}

/** The plan every HTTP comparison uses unless it says otherwise. */
export const DEFAULT_PLAN: LoadPlan = sized({
  connections: 16,
  warmupSeconds: 2,
  roundSeconds: 3,
  rounds: 5,
  cpuProbe: workerdCpuMs,
});

/**
 * Rounds of the scenarios that judge issue 50's goals (transport, gates).
 * One round's CPU ratio between two targets spreads by about ±5 % on this
 * machine (a standard deviation of 0.05–0.07, each 3 s window on its own,
 * not a drift the interleaving would cancel), so the median of 5 rounds
 * moves by about ±3 points and of 9 by about ±2 between runs of the same
 * code, more than the goals' margins: 1.05× and 1.13× came out of two
 * 9-round runs minutes apart. 27 rounds bring it to about ±1.3 points, at
 * some 13 minutes for the two scenarios.
 */
export const JUDGING_ROUNDS = 27;

/**
 * {@link DEFAULT_PLAN} with {@link JUDGING_ROUNDS} rounds: the plan of the
 * scenarios whose CPU ratios are judged against goals. `BENCH_ROUNDS` still
 * sets the rounds (a quick run that proves the scenario works).
 *
 * @example
 * ```ts
 * await compare(targets, { ...JUDGING_PLAN, cpuProbe: app.workerCpuMs, settle: app.settle });
 * ```
 */
export const JUDGING_PLAN: LoadPlan = sized({ ...DEFAULT_PLAN, rounds: JUDGING_ROUNDS });

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The value below which a share `q` (0 to 1) of `values` lies: the nearest
 * rank, no interpolation, so a figure is always one that was measured.
 *
 * @example
 * ```ts
 * percentile([4, 1, 3, 2], 0.75); // 4
 * ```
 */
export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/**
 * Drives one target with `plan.connections` connections for `seconds`: the
 * load of one round, for a caller that measures around it (a CPU profile).
 *
 * @example
 * ```ts
 * const result = await drive({ name: "REST", url }, DEFAULT_PLAN, 3);
 * result.requests.total; // requests served in those 3 s
 * ```
 */
export async function drive(
  target: Target,
  plan: LoadPlan,
  seconds: number,
): Promise<autocannon.Result> {
  const { makeBody, makeHeaders, makePath } = target;
  const perRequest =
    makeBody || makeHeaders || makePath
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                ...(makeBody ? { body: makeBody() } : {}),
                ...(makeHeaders ? { headers: { ...request.headers, ...makeHeaders() } } : {}),
                ...(makePath ? { path: makePath() } : {}),
              }),
            },
          ],
        }
      : {};
  return autocannon({
    url: target.url,
    method: target.method ?? "GET",
    ...(target.headers ? { headers: target.headers } : {}),
    ...(target.body ? { body: target.body } : {}),
    ...perRequest,
    connections: plan.connections,
    duration: seconds,
  });
}

/**
 * Measures several targets side by side: a warm-up each, then rounds that
 * interleave the targets so drift of the machine hits all alike, each round
 * starting one target later (A B C, B C A, C A B, ...) so no target always
 * runs right after the same neighbour or always first; reports medians.
 * With `plan.settle`, each measured window starts from a collected heap and
 * ends with a collection of its own garbage (see {@link LoadPlan.settle}).
 * Ratios between targets of one call are the figures worth quoting, never
 * the absolute numbers.
 */
export async function compare(
  targets: readonly Target[],
  plan: LoadPlan = DEFAULT_PLAN,
  log: (line: string) => void = console.error,
): Promise<LoadFigures[]> {
  for (const target of targets) await drive(target, plan, plan.warmupSeconds);
  const results = new Map<string, autocannon.Result[]>(targets.map((target) => [target.name, []]));
  const cpu = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  const counted = new Map<string, Record<string, number[]>>(
    targets.map((target) => [target.name, {}]),
  );
  const readCounters = async (): Promise<Record<string, number>> => (await plan.counters?.()) ?? {};
  for (let round = 1; round <= plan.rounds; round++) {
    const order = targets.map((_, index) => targets[(index + round - 1) % targets.length]!);
    for (const target of order) {
      await plan.settle?.();
      const countedBefore = await readCounters();
      const before = await plan.cpuProbe?.();
      const result = await drive(target, plan, plan.roundSeconds);
      await plan.settle?.();
      const after = await plan.cpuProbe?.();
      const countedAfter = await readCounters();
      results.get(target.name)!.push(result);
      const served = result.requests.total;
      for (const name of Object.keys(countedAfter)) {
        const perTarget = counted.get(target.name)!;
        perTarget[name] ??= [];
        const delta = countedAfter[name]! - countedBefore[name]!;
        perTarget[name].push(served > 0 ? (delta * 1000) / served : 0);
      }
      if (before !== undefined && after !== undefined && served > 0) {
        cpu.get(target.name)!.push((after - before) / served);
      }
      log(
        `    round ${round}/${plan.rounds} ${target.name}: ${Math.round(result.requests.average)} req/s`,
      );
    }
  }
  return targets.map((target) => {
    const runs = results.get(target.name)!;
    return {
      name: target.name,
      requestsPerSecond: median(runs.map((run) => run.requests.average)),
      p50Ms: median(runs.map((run) => run.latency.p50)),
      p99Ms: median(runs.map((run) => run.latency.p99)),
      errors: runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0),
      rounds: runs.map((run) => Math.round(run.requests.average)),
      cpuMsPerRequest: cpu.get(target.name)!.length > 0 ? median(cpu.get(target.name)!) : null,
      ...(cpu.get(target.name)!.length > 0 ? { cpuRounds: cpu.get(target.name)! } : {}),
      ...(plan.counters
        ? {
            per1000: Object.fromEntries(
              Object.entries(counted.get(target.name)!).map(([name, values]) => [
                name,
                median(values),
              ]),
            ),
          }
        : {}),
    };
  });
}

/**
 * The median over rounds of `target / baseline` throughput, each ratio taken
 * within one round. Both ran back to back, so a slow spell of the machine
 * (other processes, thermal) hits both sides of each ratio alike: steadier
 * than the ratio of the two medians.
 *
 * @example
 * ```ts
 * const [rest, rpc] = await compare([restTarget, rpcTarget]);
 * medianRatio(rest, rpc); // 0.97
 * ```
 */
export function medianRatio(target: LoadFigures, baseline: LoadFigures): number {
  return median(
    target.rounds.map((value, round) => value / (baseline.rounds[round] ?? Number.NaN)),
  );
}

export { median };

/**
 * The median over rounds of `target / baseline` workerd CPU per request, each
 * ratio taken within one round: how the bench judges a cost (CPU per request
 * tells the same story on a loaded machine where throughput does not).
 * `null` without a CPU probe.
 *
 * @example
 * ```ts
 * const [gate, none] = await compare([gateTarget, noGateTarget], { ...DEFAULT_PLAN, cpuProbe });
 * medianCpuRatio(gate, none); // 1.04: the gate adds 4 % CPU per request
 * ```
 */
export function medianCpuRatio(target: LoadFigures, baseline: LoadFigures): number | null {
  if (!target.cpuRounds || !baseline.cpuRounds) return null;
  return median(
    target.cpuRounds.map((value, round) => value / (baseline.cpuRounds![round] ?? Number.NaN)),
  );
}
