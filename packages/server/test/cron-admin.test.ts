/**
 * The jobs view's future (issue 52 point 5) in workerd: each cron job's
 * schedule in words and its next run, "run now" as an audited admin route
 * (the job runs as its service in its shard, recorded as a `cron` call of
 * the job; the audit line names the operator and the outcome), and each
 * queue's backlog from the runtime.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { describeCronSchedule, nextCronRun } from "../src/cron/schedule.ts";
import type { CallRecord, CronJobView, QueueView } from "../src/entries/route-contract.ts";
import { rpcValue } from "./rpc.ts";
import worker, { recordingWorker } from "./worker.ts";

const ADMIN = { authorization: "Bearer test-admin-token-0123456789abcdef" };

/** A request to the test worker (`main`) or its recording twin, settled with its waitUntil work. */
async function call(target: "main" | "recording", path: string, init?: RequestInit) {
  const ctx = createExecutionContext();
  const request = new Request(`http://svc.test${path}`, init);
  const response =
    target === "main"
      ? await worker.fetch(request as Parameters<typeof worker.fetch>[0], env, ctx)
      : await recordingWorker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const runNow = (job: string, headers: Record<string, string> = ADMIN) =>
  call("main", `/_svc/admin/crons/${job}/run`, { method: "POST", headers });

/** The audit lines `createWorker` prints when no audit trail is configured (Workers Logs). */
function watchAuditLines(): () => Record<string, unknown>[] {
  const lines: string[] = [];
  const forward = console.log;
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    const [first] = args;
    if (typeof first === "string" && first.includes('"svc":"audit"')) lines.push(first);
    else forward.apply(console, args);
  });
  return () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

const tickRuns = async () =>
  (await rpcValue<{ job: string; caller: string }[]>("jobs:runs", {})).filter(
    (run) => run.job === "tick",
  ).length;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a cron schedule", () => {
  const at = new Date("2026-12-04T16:21:30Z"); // a Friday
  it.each([
    ["* * * * *", "Every minute", "2026-12-04T16:22:00.000Z"],
    ["*/5 * * * *", "Every 5 minutes", "2026-12-04T16:25:00.000Z"],
    ["0 * * * *", "Every hour, on the hour", "2026-12-04T17:00:00.000Z"],
    ["0 3 * * *", "At 03:00 UTC, every day", "2026-12-05T03:00:00.000Z"],
    ["10 7 * * mon-fri", "At 07:10 UTC, on Monday to Friday", "2026-12-07T07:10:00.000Z"],
    ["0 17 * * 1", "At 17:00 UTC, on Sunday", "2026-12-06T17:00:00.000Z"],
    ["0 15 1 * *", "At 15:00 UTC, on day 1 of the month", "2027-01-01T15:00:00.000Z"],
    ["30 9 * JAN *", "At 09:30 UTC, every day, in January", "2027-01-01T09:30:00.000Z"],
    ["59 23 LW * *", "At 23:59 UTC, on day “LW” of the month", null],
    ["0 0 31 2 *", "At 00:00 UTC, on day 31 of the month, in February", null],
  ])("%s reads “%s” and next fires at %s", (schedule, words, next) => {
    expect(describeCronSchedule(schedule)).toBe(words);
    expect(nextCronRun(schedule, at)?.toISOString() ?? null).toBe(next);
  });
});

describe("the jobs admin routes", () => {
  it("list each cron job with its schedule in words and its next run", async () => {
    const response = await call("recording", "/_svc/admin/logs/cron", { headers: ADMIN });
    expect(response.status).toBe(200);
    const { jobs } = (await response.json()) as { jobs: CronJobView[] };
    const hourly = jobs.find((job) => job.job === "hourly");
    expect(hourly).toMatchObject({ schedule: "0 * * * *", summary: "Every hour, on the hour" });
    const next = Date.parse(hourly?.nextRun ?? "");
    expect(next).toBeGreaterThan(Date.now());
    expect(next).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(new Date(next).getUTCMinutes()).toBe(0);
  });

  it("run a cron job now, as its service, and audit it with the operator", async () => {
    const audit = watchAuditLines();
    const before = await tickRuns();
    const response = await runNow("tick");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ job: "tick", shardKey: "default" });
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await tickRuns()).toBe(before + 1);
    const runs = await rpcValue<{ job: string; caller: string }[]>("jobs:runs", {});
    expect(runs.at(-1)).toEqual({ job: "tick", caller: "service:cron:tick" });
    expect(audit()).toContainEqual(
      expect.objectContaining({
        operator: "alice",
        action: "cron.run",
        targetType: "cron",
        targetId: "tick",
        outcome: "ok",
        detail: expect.stringMatching(
          /^ran tick \(\*\/5 \* \* \* \*\) in shard default in \d+ ms$/,
        ),
      }),
    );
  });

  it("record a job run now as a cron call of that job, beside the admin call", async () => {
    const started = Date.now();
    const response = await call("recording", "/_svc/admin/crons/tick/run", {
      method: "POST",
      headers: ADMIN,
    });
    expect(response.status).toBe(200);
    const recorded = async (query: string) => {
      const answer = await call("recording", `/_svc/admin/logs?since=${started}&${query}`, {
        headers: ADMIN,
      });
      return ((await answer.json()) as { records: CallRecord[] }).records;
    };
    // Records are written ~100 ms after their call.
    await vi.waitFor(
      async () => {
        expect(await recorded("entry=cron")).toContainEqual(
          expect.objectContaining({
            entry: "cron",
            route: "jobs:record",
            caller: { kind: "service", id: "cron:tick" },
            status: 200,
            cron: { job: "tick", schedule: "*/5 * * * *" },
          }),
        );
        expect(await recorded("entry=admin&admin=include")).toContainEqual(
          expect.objectContaining({ route: "POST /_svc/admin/*", status: 200 }),
        );
      },
      { timeout: 8_000, interval: 200 },
    );
  });

  it("answer a failing job's error and audit the failure", async () => {
    const audit = watchAuditLines();
    const response = await runNow("broken");
    expect(response.status).toBe(500);
    const problem = (await response.json()) as { code: string; detail?: string };
    expect(problem.code).toBe("INTERNAL");
    expect(JSON.stringify(problem)).not.toContain("failed on purpose");
    expect(audit()).toContainEqual(
      expect.objectContaining({ action: "cron.run", targetId: "broken", outcome: "error" }),
    );
  });

  it("refuse an unknown job with 404 and a caller without the admin token with 401", async () => {
    const audit = watchAuditLines();
    const unknown = await runNow("nope");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { detail: string }).detail).toBe(
      "No cron job named nope in svc/crons.ts.",
    );
    expect(audit()).toContainEqual(
      expect.objectContaining({ action: "cron.run", targetId: "nope", outcome: "error" }),
    );
    const before = await tickRuns();
    const anonymous = await runNow("tick", {});
    expect(anonymous.status).toBe(401);
    const wrongMethod = await call("main", "/_svc/admin/crons/tick/run", { headers: ADMIN });
    expect(wrongMethod.status).toBe(405);
    expect(await tickRuns()).toBe(before);
  });

  it("list each queue's backlog as its producer binding reports it", async () => {
    const response = await call("recording", "/_svc/admin/logs/queues", { headers: ADMIN });
    expect(response.status).toBe(200);
    const { queues } = (await response.json()) as { queues: QueueView[] };
    const jobs = queues.find((queue) => queue.queue === "svc-test-jobs");
    expect(jobs?.backlog).toEqual({
      messages: expect.any(Number),
      bytes: expect.any(Number),
      oldestAt: jobs?.backlog?.messages ? expect.any(String) : null,
    });
    // The dead-letter queue has no producer binding: nothing reports its backlog.
    expect(queues.find((queue) => queue.queue === "svc-test-jobs-dead")?.backlog).toBeNull();
  });
});
