/**
 * The scheduler's figures (docs/scheduler.md, "Costs"), measured in workerd
 * and printed: lateness of due jobs beside 1, 1,000 and 10,000 pending ones,
 * the drain rate of 10,000 jobs due at once, and what `runAfter` adds to a
 * mutation. Run: `npx vitest run --config vitest.slow.config.ts test/slow/scheduler-figures.test.ts`.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ScheduledEndpoint } from "../../src/internal.ts";
import { rpcValue } from "../rpc.ts";

const shard = (key: string) =>
  env.SHARD.getByName(key) as unknown as DurableObjectStub & ScheduledEndpoint;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function waitUntilDone(key: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await runInDurableObject(shard(key), (_instance, state) => {
      const [row] = state.storage.sql
        .exec<{ n: number }>(
          "SELECT count(*) AS n FROM _svc_scheduled WHERE state = 'pending' AND run_at <= ?",
          Date.now(),
        )
        .toArray();
      return row?.n ?? 0;
    });
    if (left === 0) return;
    if (Date.now() > deadline) throw new Error(`${left} due jobs left`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Start minus due time of the shard's finished jobs whose text starts with `prefix`, sorted. */
function lateness(key: string, prefix: string): Promise<number[]> {
  return runInDurableObject(shard(key), (_instance, state) =>
    state.storage.sql
      .exec<{ late: number }>(
        "SELECT started_at - run_at AS late FROM _svc_scheduled WHERE state = 'succeeded' AND args LIKE ?",
        `{"text":"${prefix}%`,
      )
      .toArray()
      .map((row) => row.late)
      .sort((a, b) => a - b),
  );
}

describe("scheduler figures", () => {
  it.each([1, 1_000, 10_000])("lateness of due jobs beside %i pending", async (pending) => {
    const key = `sched-late-${pending}`;
    await rpcValue(
      "scheduled:many",
      { count: pending, at: Date.now() + 3_600_000 },
      { shardKey: key },
    );
    const probes = 20;
    for (let i = 0; i < probes; i++) {
      await rpcValue(
        "scheduled:later",
        { delayMs: 200 + i * 150, text: `probe${i}` },
        { shardKey: key },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200 + probes * 150));
    await waitUntilDone(key, 60_000);
    const late = await lateness(key, "probe");
    expect(late.length).toBe(probes);
    console.log(
      `scheduler lateness with ${pending} pending: p50 ${quantile(late, 0.5)} ms, p99 ${quantile(late, 0.99)} ms`,
    );
  });

  it("drains 10,000 jobs due at once", async () => {
    const key = "sched-drain";
    const at = Date.now() + 1_000;
    await rpcValue("scheduled:many", { count: 10_000, at }, { shardKey: key });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now() + 50)));
    await waitUntilDone(key, 600_000);
    // workerd's clock inside the shard stands still between I/O: time the drain from outside.
    const seconds = (Date.now() - at) / 1000;
    console.log(
      `scheduler drain: 10,000 jobs due at once done ${seconds.toFixed(2)} s after due = ${Math.round(10_000 / seconds)} jobs/s per shard (at least)`,
    );
  });

  it("what runAfter adds to a mutation", async () => {
    const rounds = 300;
    const time = async (path: string, args: (i: number) => unknown, key: string) => {
      const started = performance.now();
      for (let i = 0; i < rounds; i++) await rpcValue(path, args(i), { shardKey: key });
      return (performance.now() - started) / rounds;
    };
    // Alternated, warmed up: the two measured in the same run, on shards of the same size.
    await time("scheduled:direct", (i) => ({ text: `w${i}` }), "sched-cost-a");
    await time("scheduled:direct", (i) => ({ text: `w${i}`, withJob: true }), "sched-cost-b");
    let plain = 0;
    let scheduled = 0;
    for (let round = 0; round < 3; round++) {
      plain += await time("scheduled:direct", (i) => ({ text: `d${i}` }), "sched-cost-a");
      scheduled += await time(
        "scheduled:direct",
        (i) => ({ text: `s${i}`, withJob: true }),
        "sched-cost-b",
      );
    }
    console.log(
      `scheduler runAfter in a mutation: ${(scheduled / 3).toFixed(3)} ms per call against ${(plain / 3).toFixed(3)} ms without (+${(((scheduled - plain) / plain) * 100).toFixed(1)} %)`,
    );
  });
});
