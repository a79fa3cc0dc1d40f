import { postJson, seedRow, startBenchApp } from "../lib/bench-app.ts";
import type { Target } from "../lib/load.ts";
import {
  type ProfilePlan,
  profileTargets,
  renderAllocationTable,
  renderProfileTable,
} from "../lib/profile-targets.ts";

/** The targets one profile compares, given a started bench app; the baseline is the last. */
type ProfileSetup = (url: string) => Promise<Target[]>;

/** The REST read against the hand-written Hono route (section 1's pair). */
const transport: ProfileSetup = async (url) => {
  const rowId = await seedRow({ url } as never);
  const { body: plainId } = await postJson(`${url}/hono/seed`, {});
  return [
    { name: "svc REST (GET)", url: `${url}/_svc/rest/rows/get?shardKey=bench&id=${rowId}` },
    // The same read with call recording off: which of the gap is recording.
    {
      name: "svc REST, recording off",
      url: `${url}/_svc/rest/rows/get?shardKey=bench&id=${rowId}`,
      headers: { "x-bench-variant": "logs-off" },
    },
    { name: "hand-written Hono → DO", url: `${url}/hono/row/${plainId as string}` },
  ];
};

/** The gates of section 2 against the same read with none (the baseline, last). */
const gates: ProfileSetup = async (url) => {
  const rowId = await seedRow({ url } as never);
  const read = `${url}/_svc/rest/rows/get?shardKey=bench&id=${rowId}`;
  const { body } = await postJson(`${url}/bench/seed-sessions?n=500`, {});
  const tokens = (body as { tokens: string[] }).tokens;
  // Each caller once first, as the gates scenario does: the profile then shows cached calls, not
  // the cache filling (a round that filled it spent a quarter of its CPU in better-auth).
  for (let start = 0; start < tokens.length; start += 16) {
    await Promise.all(
      tokens.slice(start, start + 16).map(async (token) => {
        const response = await fetch(read, {
          headers: { "x-bench-variant": "identity", authorization: `Bearer ${token}` },
        });
        await response.arrayBuffer();
      }),
    );
  }
  let next = 0;
  return [
    { name: "leased gate", url: read, headers: { "x-bench-variant": "ratelimit-leased" } },
    { name: "exact gate", url: read, headers: { "x-bench-variant": "ratelimit" } },
    {
      name: "identity, 500 callers",
      url: read,
      headers: { "x-bench-variant": "identity" },
      makeHeaders: () => ({ authorization: `Bearer ${tokens[next++ % tokens.length]}` }),
    },
    { name: "no gates", url: read, headers: { "x-bench-variant": "plain" } },
  ];
};

/** One profile as BENCHMARKS.md shows it. */
export interface ProfileReport {
  /** The command that took it. */
  command: string;
  /** When (ISO date) and how long each target was profiled. */
  date: string;
  rounds: number;
  seconds: number;
  /** The ranked tables, Markdown. */
  tables: string;
}

/** The scenarios `npm run bench -- --profile <name>` knows. */
export const PROFILES = { transport, gates } as const;

/**
 * `npm run bench -- --profile transport`: a CPU profile of the bench worker
 * (V8's sampling profiler in its workerd, through the inspector) under each
 * target of the scenario in turn, as a Markdown table of self time per
 * request by function, ranked by the first target, beside the baseline (the
 * last) and the difference. What a throughput ratio cannot say: which
 * function the gap is made of. `BENCH_ROUNDS` / `BENCH_ROUND_SECONDS` size it.
 *
 * @example
 * ```ts
 * const { tables } = await profileScenario("transport", console.error);
 * ```
 */
export async function profileScenario(
  name: keyof typeof PROFILES,
  log: (line: string) => void,
): Promise<ProfileReport> {
  const plan: ProfilePlan = {
    rounds: Number(process.env.BENCH_ROUNDS) || 3,
    seconds: Number(process.env.BENCH_ROUND_SECONDS) || 4,
  };
  const app = await startBenchApp({ inspect: true });
  try {
    const targets = await PROFILES[name](app.url);
    const table = await profileTargets(app, targets, plan, log);
    const baseline = targets.length - 1;
    const tables = [
      `Ranked by ${targets[0]!.name}:`,
      "",
      renderProfileTable(table, { rankBy: 0, baseline, top: 25 }),
      "",
      `Ranked by ${targets[baseline]!.name}:`,
      "",
      renderProfileTable(table, { rankBy: baseline, baseline, top: 10 }),
      "",
      `Bytes allocated per request (one window of ${plan.seconds} s per target under V8's sampling heap ` +
        `profiler, objects already collected included), ranked by ${targets[0]!.name}:`,
      "",
      renderAllocationTable(table, { rankBy: 0, baseline, top: 15 }),
    ].join("\n");
    return {
      command: `npm run bench -- --profile ${name}`,
      date: new Date().toISOString().slice(0, 10),
      ...plan,
      tables,
    };
  } finally {
    await app.stop();
  }
}
