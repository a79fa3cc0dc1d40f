/**
 * What `@svc/testing` costs a test, in workerd: a test's typical work (one
 * mutation and one query as a user) through a fresh `createTest()` against
 * the same two calls sent straight to an already-running shard over JS RPC
 * (the baseline, measured in the same run, interleaved). The difference is
 * the harness's per-test overhead: a new Durable Object with its schema, the
 * wire codec and the identity. `t.run` (a seed in a fresh shard) is timed too.
 *
 * Run: `npm run bench -- harness` (bench/scenarios/harness.ts), or
 * `npx vitest run -c vitest.bench.config.ts` here (`ROUNDS=…`). Prints one
 * `SVC_BENCH_RESULT {json}` line.
 */
import { env } from "cloudflare:workers";
import type { ShardCall, ShardEndpoint } from "@svc/server/internal";
import { expect, it } from "vitest";
import { createTest } from "../../src/index.ts";
import { api } from "../fixture/api.ts";

const ROUNDS = Number((env as unknown as { BENCH_ROUNDS?: string }).BENCH_ROUNDS ?? 200);
const ann = { userId: "ann" };

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function p90(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * 0.9)] ?? 0;
}

async function timed(samples: number[], work: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await work();
  samples.push(performance.now() - started);
}

it("measures the harness's per-test overhead", async () => {
  const shard = env.SHARD.getByName("bench-warm-shard") as unknown as ShardEndpoint;
  const call = async (path: string, args: unknown) => {
    const shardCall: ShardCall = {
      path,
      args,
      identity: ann,
      service: null,
      transport: "rpc",
      requestId: crypto.randomUUID(),
      shardKey: "default",
    };
    const result = await shard.call(shardCall);
    expect(result.ok).toBe(true);
  };
  const warm = createTest().as(ann);
  await call("notes:whoami", {});
  await warm.query(api.notes.whoami);
  const direct: number[] = [];
  const warmHarness: number[] = [];
  const freshTest: number[] = [];
  const freshRun: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await timed(direct, async () => {
      await call("notes:add", { text: "x" });
      await call("notes:whoami", {});
    });
    await timed(warmHarness, async () => {
      await warm.mutation(api.notes.add, { text: "x" });
      await warm.query(api.notes.whoami);
    });
    await timed(freshTest, async () => {
      const t = createTest().as(ann);
      await t.mutation(api.notes.add, { text: "x" });
      await t.query(api.notes.whoami);
    });
    await timed(freshRun, () =>
      createTest().run(({ db }) => db.insert("notes", { owner: "ann", text: "x" })),
    );
  }
  const figure = (samples: number[]) => ({
    medianMs: Number(median(samples).toFixed(3)),
    p90Ms: Number(p90(samples).toFixed(3)),
  });
  const result = {
    rounds: ROUNDS,
    direct: figure(direct),
    warmHarness: figure(warmHarness),
    freshTest: figure(freshTest),
    freshRun: figure(freshRun),
    overheadMs: Number((median(freshTest) - median(direct)).toFixed(3)),
  };
  console.log(`SVC_BENCH_RESULT ${JSON.stringify(result)}`);
});
