import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { cronJobs } from "../src/index.ts";
import { internal } from "./fixture/api.ts";
import { rpc, rpcValue } from "./rpc.ts";
import worker from "./worker.ts";

/** Fires a cron trigger at the worker's `scheduled` handler; resolves once it settled. */
async function fire(cron: string): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** Delivers a batch to the worker's `queue` handler and answers what it acked and retried. */
async function deliver(queue: string, messages: { id: string; body: unknown }[]) {
  const batch = createMessageBatch(
    queue,
    messages.map((m) => ({ ...m, timestamp: new Date(), attempts: 1 })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

type Run = { job: string; caller: string };

async function runs(shardKey = "default"): Promise<Run[]> {
  return rpcValue<Run[]>("jobs:runs", {}, { shardKey });
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("cron jobs", () => {
  it("run every job of the fired schedule as the service identity; a failure stays in its job", async () => {
    await expect(fire("*/5 * * * *")).resolves.toBeUndefined();
    const recorded = await runs();
    expect(recorded).toContainEqual({ job: "tick", caller: "service:cron:tick" });
    expect(recorded.some((run) => run.job === "broken")).toBe(false);
  });

  it("run a job in its declared shard and not on other schedules", async () => {
    await fire("0 * * * *");
    expect(await runs("jobs-hourly")).toEqual([{ job: "hourly", caller: "service:cron:hourly" }]);
    expect((await runs()).some((run) => run.job === "hourly")).toBe(false);
  });

  it("survive a schedule no job declares", async () => {
    await expect(fire("1 2 3 4 5")).resolves.toBeUndefined();
  });

  it("let policies tell the service from users and anonymous callers", async () => {
    for (const user of ["alice", undefined]) {
      const response = await rpc("jobs:recordAsCaller", { job: "forged" }, user ? { user } : {});
      expect(response.status).toBe(403);
    }
    expect((await runs()).some((run) => run.job === "forged")).toBe(false);
  });

  it("refuse malformed declarations with a message that names the job", () => {
    const jobs = cronJobs();
    expect(() => jobs.add("bad", "every minute", internal.jobs.record, { job: "x" })).toThrow(
      /cron job bad has schedule "every minute"/,
    );
    jobs.add("ok", "* * * * *", internal.jobs.record, { job: "x" });
    expect(() => jobs.add("ok", "* * * * *", internal.jobs.record, { job: "x" })).toThrow(
      /declared twice/,
    );
  });
});

describe("queues", () => {
  it("consume a message with the service identity and ack it", async () => {
    const result = await deliver("svc-test-jobs", [{ id: "m1", body: { text: "hello" } }]);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(result.retryMessages).toEqual([]);
    expect(await runs()).toContainEqual({
      job: "queue:hello",
      caller: "service:queue:svc-test-jobs",
    });
  });

  it("retry a throwing message and an invalid one, ack the rest of the batch", async () => {
    const result = await deliver("svc-test-jobs", [
      { id: "good", body: { text: "fine" } },
      { id: "poison", body: { text: "p", poison: true } },
      { id: "garbage", body: { nope: 1 } },
    ]);
    expect(result.explicitAcks).toEqual(["good"]);
    expect(result.retryMessages.map((m) => m.msgId).sort()).toEqual(["garbage", "poison"]);
  });

  it("send from a procedure; a poison message is retried, then lands in the dead-letter queue", async () => {
    const send = async (body: { text: string; poison?: boolean }) =>
      expect((await rpc("jobs:enqueue", body)).status).toBe(200);
    await send({ text: "live" });
    await send({ text: "doomed", poison: true });
    const recorded = await until(async () => {
      const all = await runs();
      return all.some((run) => run.job === "dead:doomed") ? all : undefined;
    });
    expect(recorded).toContainEqual({ job: "queue:live", caller: "service:queue:svc-test-jobs" });
    expect(recorded).toContainEqual({
      job: "dead:doomed",
      caller: "service:queue:svc-test-jobs-dead",
    });
    expect(recorded.some((run) => run.job === "queue:doomed")).toBe(false);
  }, 30_000);

  it("retry a batch for a queue nobody consumes", async () => {
    const result = await deliver("svc-test-unknown", [{ id: "x", body: {} }]);
    expect(result.retryBatch).toMatchObject({ retry: true });
    expect(result.explicitAcks).toEqual([]);
  });
});
