import { createExecutionContext, env, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CallRecord } from "../src/index.ts";
import type { JobRow, ScheduledEndpoint } from "../src/internal.ts";
import type { ShardDataEndpoint } from "../src/registry/data-endpoint.ts";
import { forceEviction, settled, shardOf, storeOldDocuments } from "./migration-support.ts";
import { rpc, rpcValue } from "./rpc.ts";
import { recordingWorker } from "./worker.ts";

/** The shard of `shardKey` with the scheduler's internal methods (what a test harness calls). */
function shard(shardKey: string): DurableObjectStub & ScheduledEndpoint {
  return env.SHARD.getByName(shardKey) as unknown as DurableObjectStub & ScheduledEndpoint;
}

/** Every job row of a shard, oldest first. */
function jobsOf(shardKey: string): Promise<JobRow[]> {
  return runInDurableObject(shard(shardKey), (_instance, state) =>
    state.storage.sql
      .exec<JobRow>("SELECT * FROM _svc_scheduled ORDER BY created_at, id")
      .toArray()
      .map((row) => ({ ...row })),
  );
}

/** Polls until `check` answers true (the alarm runs jobs on its own time). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Jobs of a shard not finished yet (an index count: cheap while 10,000 wait). */
function unfinished(shardKey: string): Promise<number> {
  return runInDurableObject(shard(shardKey), (_instance, state) => {
    const [row] = state.storage.sql
      .exec<{ n: number }>(
        "SELECT count(*) AS n FROM _svc_scheduled WHERE state IN ('pending', 'running')",
      )
      .toArray();
    return row?.n ?? 0;
  });
}

const count = (shardKey: string) => rpcValue<number>("scheduled:count", {}, { shardKey });

describe("ctx.scheduler", () => {
  it("runs a scheduled mutation once, when due, from the shard's alarm, as the caller", async () => {
    const shardKey = "sched-once";
    const id = await rpcValue<string>(
      "scheduled:later",
      { delayMs: 300, text: "hello" },
      { shardKey, user: "ann" },
    );
    expect(id).toMatch(/^_svc_scheduled_[0-9a-z]{26}$/);
    expect(await count(shardKey)).toBe(0);
    await eventually(async () => (await count(shardKey)) === 1);
    // The alarm fires again for nothing else: the job stays done, its note single.
    await shard(shardKey).runScheduled(Date.now() + 60_000);
    expect(await rpcValue("scheduled:texts", {}, { shardKey })).toEqual(["hello by ann"]);
    const [job] = await jobsOf(shardKey);
    expect(job).toMatchObject({
      id,
      path: "scheduled:note",
      kind: "mutation",
      state: "succeeded",
      attempts: 1,
      user_id: "ann",
      error: null,
    });
    expect(job!.started_at).toBeGreaterThanOrEqual(job!.run_at);
  });

  it("schedules nothing when the scheduling mutation rolls back", async () => {
    const shardKey = "sched-rollback";
    const response = await rpc(
      "scheduled:later",
      { delayMs: 0, text: "x", fail: true },
      { shardKey },
    );
    expect(response.status).toBe(500);
    expect(await shard(shardKey).runScheduled(Date.now() + 60_000)).toBe(0);
    expect(await jobsOf(shardKey)).toEqual([]);
    expect(await count(shardKey)).toBe(0);
  });

  it("never runs a canceled job", async () => {
    const shardKey = "sched-cancel";
    const id = await rpcValue<string>("scheduled:later", { delayMs: 500, text: "x" }, { shardKey });
    expect(await rpcValue("scheduled:cancel", { id }, { shardKey })).toBe(true);
    // A second cancel, and one of an id this shard never made, stop nothing.
    expect(await rpcValue("scheduled:cancel", { id }, { shardKey })).toBe(false);
    expect(await rpcValue("scheduled:cancel", { id: "_svc_scheduled_nope" }, { shardKey })).toBe(
      false,
    );
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await shard(shardKey).runScheduled(Date.now() + 60_000)).toBe(0);
    expect(await count(shardKey)).toBe(0);
    expect(await jobsOf(shardKey)).toMatchObject([{ id, state: "canceled", attempts: 0 }]);
  });

  it("runs a job whose shard was evicted before it was due", async () => {
    const shardKey = "sched-evicted";
    await rpcValue("scheduled:later", { delayMs: 1_000, text: "survivor" }, { shardKey });
    await forceEviction(shardKey);
    await eventually(async () => (await count(shardKey)) === 1);
    expect((await jobsOf(shardKey)).map((job) => job.state)).toEqual(["succeeded"]);
  });

  it("refuses bad arguments, delays and shard keys at schedule time, scheduling nothing", async () => {
    const shardKey = "sched-refused";
    const bad = await rpc("scheduled:badArgs", {}, { shardKey });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    const negative = await rpc("scheduled:later", { delayMs: -1, text: "x" }, { shardKey });
    expect(await negative.json()).toMatchObject({
      code: "BAD_REQUEST",
      data: { reason: "delayMs" },
    });
    const far = await rpc(
      "scheduled:later",
      { delayMs: 400 * 86_400_000, text: "x" },
      { shardKey },
    );
    expect(far.status).toBe(400);
    expect(await far.json()).toMatchObject({ code: "BAD_REQUEST", data: { reason: "delayMs" } });
    const reserved = await rpc(
      "scheduled:later",
      { delayMs: 0, text: "x", shardKey: "\u0000svc/registry/00" },
      { shardKey },
    );
    expect(reserved.status).toBe(400);
    const big = await rpc(
      "scheduled:later",
      { delayMs: 0, text: "x".repeat(70_000) },
      { shardKey },
    );
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      data: { reason: "argsBytes", max: 65_536 },
    });
    expect(await jobsOf(shardKey)).toEqual([]);
  });

  it("retries a throwing action with backoff, then ends it failed with its error", async () => {
    const shardKey = "sched-flaky";
    await rpcValue("scheduled:later", { delayMs: 0, text: "f", action: "flaky" }, { shardKey });
    // The first attempt runs now; the others are due 1 s, 2 s, 4 s, 8 s after the one before.
    await shard(shardKey).runScheduled();
    const [waiting] = await jobsOf(shardKey);
    expect(waiting).toMatchObject({ state: "pending", attempts: 1 });
    expect(waiting!.error).toContain("flaky f failed on purpose");
    expect(waiting!.run_at - Date.now()).toBeGreaterThan(500);
    expect(await shard(shardKey).runScheduled(Date.now() + 3_600_000)).toBe(4);
    const [failed] = await jobsOf(shardKey);
    expect(failed).toMatchObject({ state: "failed", attempts: 5, kind: "action" });
    expect(failed!.error).toBe("INTERNAL: flaky f failed on purpose");
    expect(failed!.finished_at).not.toBeNull();
  });

  it("counts an attempt the shard stopped during, with an error code", async () => {
    const shardKey = "sched-interrupted";
    await rpcValue(
      "scheduled:later",
      { delayMs: 3_600_000, text: "i", action: "flaky" },
      { shardKey },
    );
    // As if the shard stopped while the action ran: claimed, one attempt counted.
    await runInDurableObject(shard(shardKey), (_instance, state) => {
      state.storage.sql.exec("UPDATE _svc_scheduled SET state = 'running', attempts = 1");
    });
    await forceEviction(shardKey);
    const [job] = await jobsOf(shardKey);
    expect(job).toMatchObject({ state: "pending", attempts: 1 });
    expect(job!.error).toBe("UNAVAILABLE: The shard stopped during this attempt.");
  });

  it("runs a scheduled action and the mutation it calls", async () => {
    const shardKey = "sched-action";
    await rpcValue(
      "scheduled:later",
      { delayMs: 0, text: "via", action: "note" },
      { shardKey, user: "bo" },
    );
    await eventually(async () => (await count(shardKey)) === 1);
    expect(await rpcValue("scheduled:texts", {}, { shardKey })).toEqual(["via by bo"]);
    expect(await jobsOf(shardKey)).toMatchObject([{ state: "succeeded", attempts: 1 }]);
  });

  it("hands a job to another shard when due, which runs it there once", async () => {
    const from = "sched-from";
    const to = "sched-to";
    const id = await rpcValue<string>(
      "scheduled:later",
      { delayMs: 0, text: "moved", shardKey: to },
      { shardKey: from, user: "cy" },
    );
    await eventually(async () => (await count(to)) === 1);
    expect(await rpcValue("scheduled:texts", {}, { shardKey: to })).toEqual(["moved by cy"]);
    expect(await count(from)).toBe(0);
    expect(await jobsOf(from)).toMatchObject([{ id, state: "succeeded", target_shard: to }]);
    expect(await jobsOf(to)).toMatchObject([{ id, state: "succeeded", target_shard: null }]);
  });

  it("never hands over a job canceled while an earlier job of its drain runs", async () => {
    const from = "sched-cancel-hand-over";
    const to = "sched-cancel-hand-over-to";
    // Far enough ahead that the alarm leaves both to the drain below.
    const at = Date.now() + 60_000;
    const { slow, moved } = await rpcValue<{ slow: string; moved: string }>(
      "scheduled:slowThenMoved",
      { at, ms: 1_000, text: "canceled", to },
      { shardKey: from },
    );
    // One drain reads both jobs, then awaits the slow action before it reaches the hand-over.
    const drain = shard(from).runScheduled(at + 10);
    await eventually(async () => (await jobsOf(from)).some((job) => job.state === "running"));
    expect(await rpcValue("scheduled:cancel", { id: moved }, { shardKey: from })).toBe(true);
    expect(await drain).toBe(1);
    expect(await jobsOf(to)).toEqual([]);
    // Both were stored in one millisecond: compare them by id, not by their order.
    const jobs = new Map((await jobsOf(from)).map((job) => [job.id, job]));
    expect(jobs.get(slow)).toMatchObject({ state: "succeeded" });
    expect(jobs.get(moved)).toMatchObject({ state: "canceled", attempts: 0 });
    expect(await count(to)).toBe(0);
  });
});

describe("the schedules admin API", () => {
  const ADMIN = { authorization: "Bearer test-admin-token-0123456789abcdef" };
  const admin = (path: string, init: RequestInit = {}) =>
    exports.default.fetch(`http://svc.test/_svc/admin/schedules/${path}`, {
      ...init,
      headers: { ...ADMIN, "content-type": "application/json", ...init.headers },
    });
  const cancel = (key: string, body: unknown) =>
    admin(`shards/${key}/cancel`, { method: "POST", body: JSON.stringify(body) });

  it("lists a shard's jobs with filters and pages, and cancels one or a filtered set", async () => {
    const shardKey = "sched-admin";
    const first = await rpcValue<string>(
      "scheduled:later",
      { delayMs: 60_000, text: "a1" },
      { shardKey, user: "ann" },
    );
    await rpcValue("scheduled:later", { delayMs: 61_000, text: "a2" }, { shardKey, user: "ann" });
    await rpcValue("scheduled:later", { delayMs: 62_000, text: "b1" }, { shardKey, user: "bo" });
    const all = await admin(`shards/${shardKey}`);
    expect(all.status).toBe(200);
    expect(all.headers.get("cache-control")).toContain("no-store");
    const page = (await all.json()) as { jobs: Record<string, unknown>[]; nextCursor: null };
    expect(page.jobs.map((job) => job.runsAs)).toEqual(["user:ann", "user:ann", "user:bo"]);
    expect(page.jobs[0]).toMatchObject({
      id: first,
      function: "scheduled:note",
      kind: "mutation",
      state: "pending",
      attempts: 0,
      args: { text: "a1" },
      error: null,
      targetShard: null,
    });
    expect(Date.parse(page.jobs[0]!.dueAt as string)).toBeGreaterThan(Date.now() + 50_000);
    const one = (await (await admin(`shards/${shardKey}?user=ann&limit=1`)).json()) as {
      jobs: { id: string }[];
      nextCursor: string;
    };
    expect(one.jobs.map((job) => job.id)).toEqual([first]);
    const next = (await (
      await admin(
        `shards/${shardKey}?user=ann&limit=1&cursor=${encodeURIComponent(one.nextCursor)}`,
      )
    ).json()) as { jobs: { runsAs: string }[]; nextCursor: string | null };
    expect(next.jobs).toMatchObject([{ runsAs: "user:ann" }]);
    expect(next.nextCursor).toBeNull();

    expect(await (await cancel(shardKey, { ids: [first] })).json()).toEqual({ canceled: 1 });
    expect(await (await cancel(shardKey, { user: "bo" })).json()).toEqual({ canceled: 1 });
    const empty = await cancel(shardKey, {});
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: "BAD_REQUEST" });
    const canceled = (await (await admin(`shards/${shardKey}?state=canceled`)).json()) as {
      jobs: { runsAs: string }[];
    };
    expect(canceled.jobs.map((job) => job.runsAs)).toEqual(["user:ann", "user:bo"]);
    expect(await (await cancel(shardKey, { all: true })).json()).toEqual({ canceled: 1 });
    expect(await shard(shardKey).runScheduled(Date.now() + 3_600_000)).toBe(0);
    expect(await count(shardKey)).toBe(0);
  });

  it("cancels 250 jobs named by id in one call (more than SQLite's bound parameters)", async () => {
    const shardKey = "sched-admin-many-ids";
    await rpcValue("scheduled:many", { count: 250, at: Date.now() + 3_600_000 }, { shardKey });
    const ids = (await jobsOf(shardKey)).map((job) => job.id);
    expect(ids).toHaveLength(250);
    // One id twice and one this shard never made count nothing more.
    const answer = await cancel(shardKey, { ids: [...ids, ids[0], "_svc_scheduled_nope"] });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ canceled: 250 });
    const states = new Set((await jobsOf(shardKey)).map((job) => job.state));
    expect(states).toEqual(new Set(["canceled"]));
    expect(await shard(shardKey).runScheduled(Date.now() + 7_200_000)).toBe(0);
  });

  it("refuses a bad filter, cursor or shard key, and callers without the admin token", async () => {
    expect((await admin("shards/sched-admin?state=sleeping")).status).toBe(400);
    expect((await admin("shards/sched-admin?cursor=nope")).status).toBe(400);
    expect((await admin("shards/%00svc%2Fregistry%2F00")).status).toBe(400);
    const anonymous = await exports.default.fetch(
      "http://svc.test/_svc/admin/schedules/shards/sched-admin",
    );
    expect(anonymous.status).toBe(401);
  });
});

describe("scheduled runs' call records", () => {
  it("records each run with entry scheduler, the job's function and the scheduling caller", async () => {
    const shardKey = "sched-recorded";
    const since = Date.now();
    const request = new Request(`http://svc.test/_svc/rpc?shardKey=${shardKey}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-test-user": "dee" },
      body: JSON.stringify({
        path: "scheduled:later",
        args: { delayMs: 0, text: "r", action: "flaky" },
      }),
    });
    const scheduled = await recordingWorker.fetch(request, env, createExecutionContext());
    expect(scheduled.status).toBe(200);
    await shard(shardKey).runScheduled();
    const admin = { authorization: "Bearer test-admin-token-0123456789abcdef" };
    let found: CallRecord | undefined;
    const deadline = Date.now() + 8_000;
    while (found === undefined) {
      const answer = await recordingWorker.fetch(
        new Request(`http://svc.test/_svc/admin/logs?limit=50&entry=scheduler&since=${since}`, {
          headers: admin,
        }),
        env,
        createExecutionContext(),
      );
      const { records } = (await answer.json()) as { records: CallRecord[] };
      found = records.find((record) => record.shardKey === shardKey);
      if (found === undefined && Date.now() > deadline) throw new Error("no scheduler record");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(found).toMatchObject({
      entry: "scheduler",
      route: "scheduled:flaky",
      method: null,
      shardKey,
      caller: { kind: "user", id: "dee" },
      status: 500,
      code: "INTERNAL",
      error: { message: "flaky r failed on purpose" },
    });
  });
});

describe("many jobs due at once", () => {
  it("runs 10,000 jobs exactly once while REST reads of the shard answer 200", async () => {
    const shardKey = "sched-10k";
    const at = Date.now() + 1_500;
    await rpcValue("scheduled:many", { count: 10_000, at }, { shardKey });
    const statuses: number[] = [];
    let done = false;
    const reads = (async () => {
      while (!done) {
        const response = await exports.default.fetch(
          `http://svc.test/_svc/rest/rest/inspect?name=r&shardKey=${shardKey}`,
        );
        statuses.push(response.status);
        await response.arrayBuffer();
      }
    })();
    const started = Date.now();
    await eventually(async () => (await unfinished(shardKey)) === 0, 160_000);
    const drainMs = Date.now() - started;
    done = true;
    await reads;
    console.log(
      `10,000 jobs drained in ${drainMs} ms with ${statuses.length} REST reads meanwhile`,
    );
    const texts = await rpcValue<string[]>("scheduled:texts", {}, { shardKey });
    expect(new Set(texts).size).toBe(10_000);
    const states = await runInDurableObject(shard(shardKey), (_instance, state) =>
      state.storage.sql
        .exec<{ state: string; attempts: number; n: number }>(
          "SELECT state, attempts, count(*) AS n FROM _svc_scheduled GROUP BY state, attempts",
        )
        .toArray()
        .map((row) => ({ ...row })),
    );
    expect(states).toEqual([{ state: "succeeded", attempts: 1, n: 10_000 }]);
    expect(statuses.length).toBeGreaterThan(2);
    expect(statuses.every((status) => status === 200)).toBe(true);
  }, 200_000);
});

describe("the alarm's time budget", () => {
  it("hands the alarm back after 2 s of slow jobs, not after a batch of 100", async () => {
    const shardKey = "sched-budget";
    // 30 actions of 200 ms each: 6 s of work due at once, all in the drain's first batch.
    await rpcValue(
      "scheduled:slowMany",
      { count: 30, at: Date.now() + 300, ms: 200 },
      { shardKey },
    );
    await eventually(async () => (await jobsOf(shardKey)).some((job) => job.state !== "pending"));
    // Deleting the shard's data waits for the running drain: it gets in once the drain hands back.
    const deleted = await (
      shard(shardKey) as unknown as DurableObjectStub & ShardDataEndpoint
    ).deleteData();
    expect(deleted.ok).toBe(true);
    const { documents } = (deleted as { value: { documents: number } }).value;
    expect(documents).toBeGreaterThan(0);
    expect(documents).toBeLessThan(30);
  }, 30_000);
});

describe("migrations and scheduled jobs", () => {
  it("a migration step reads documents, not jobs; pending jobs ride through the run and run once after", async () => {
    const shardKey = "sched-migration";
    const gadgets = "2026-01-02-gadgets";
    const ids = await storeOldDocuments(shardKey, "gadgets", [
      { n: 1, size: "peek-jobs" },
      { n: 2 },
    ]);
    const id = await rpcValue<string>(
      "scheduled:later",
      { delayMs: 60_000, text: "kept" },
      { shardKey, user: "ann" },
    );
    await shardOf(shardKey).runMigration(gadgets, shardKey);
    const done = await settled(shardKey, gadgets);
    expect(done).toMatchObject({ state: "done", scanned: 2, changed: 1, failed: 1 });
    expect(done.failedDocuments).toEqual([
      { id: ids[0], message: 'No table named "_svc_scheduled" in the schema.' },
    ]);
    expect(await jobsOf(shardKey)).toMatchObject([{ id, state: "pending", attempts: 0 }]);
    expect(await shard(shardKey).runScheduled(Date.now() + 120_000)).toBe(1);
    expect(await rpcValue("scheduled:texts", {}, { shardKey })).toEqual(["kept by ann"]);
  });
});
