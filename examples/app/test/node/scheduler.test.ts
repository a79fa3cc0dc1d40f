import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type DevServer, startDevServer } from "@svc/cli";
import { createClient, type JobState, scheduledJob } from "@svc/client";
import { afterAll, describe, expect, it } from "vitest";
import { signUpForToken } from "./harness.ts";

const ADMIN_TOKEN = "scheduler-admin-token-0123456789abcdef";
const APP_DIR = path.resolve(import.meta.dirname, "../..");
const SVC_BIN = path.resolve(import.meta.dirname, "../../../../packages/cli/bin/svc.js");
const run = promisify(execFile);
const state = mkdtemp(path.join(tmpdir(), "svc-scheduler-"));
let app: DevServer | undefined;

/** Starts (or starts again) the example app on the same local state: a restart keeps its data. */
async function start(): Promise<DevServer> {
  app = await startDevServer({
    appDir: APP_DIR,
    // Shards report to the registry at once: `--all-shards` lists them through it.
    vars: { SVC_ADMIN_TOKEN: ADMIN_TOKEN, REGISTRY_INTERVAL_MS: "200" },
    persistTo: await state,
    readyTimeoutMs: 90_000,
  });
  return app;
}

afterAll(async () => {
  await app?.stop();
  await rm(await state, { recursive: true, force: true });
});

async function rpc(
  url: string,
  bearer: string,
  path: string,
  args: unknown,
  shardKey = "room-sched",
): Promise<unknown> {
  const response = await fetch(`${url}/_svc/rpc?shardKey=${shardKey}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ path, args }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { value: unknown }).value;
}

const bodies = async (url: string, bearer: string) =>
  ((await rpc(url, bearer, "messages:list", { channel: "ephemeral" })) as { body: string }[]).map(
    (message) => message.body,
  );

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs the real `svc` bin against the app. */
async function svc(args: string[]) {
  const env = { ...process.env, SVC_URL: app!.url, SVC_ADMIN_TOKEN: ADMIN_TOKEN };
  return run(process.execPath, [SVC_BIN, ...args], { env });
}

describe("scheduled jobs in the example app", () => {
  it("deletes an ephemeral message when due, even across a restart of the dev server, and lets the operator list and cancel jobs", async () => {
    let { url } = await start();
    const ann = await signUpForToken(app!, "ann-scheduler@example.com");
    const send = (body: string, seconds: number) =>
      rpc(url, ann, "messages:sendEphemeral", { body, channel: "ephemeral", seconds }) as Promise<{
        expiryJob: string;
      }>;

    // 3 s: the three sends must all land before the first is due, on a loaded machine too.
    await send("soon gone", 3);
    const kept = await send("kept by the operator", 600);
    await send("survives a restart", 8);
    expect((await bodies(url, ann)).sort()).toEqual([
      "kept by the operator",
      "soon gone",
      "survives a restart",
    ]);
    await until(async () => !(await bodies(url, ann)).includes("soon gone"));

    const listed = await svc(["schedules", "list", "room-sched", "--state", "pending", "--json"]);
    const pending = listed.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: string; function: string; runsAs: string });
    expect(pending.map((job) => job.function)).toEqual(["messages:expire", "messages:expire"]);
    expect(pending[0]!.runsAs).toMatch(/^user:/);
    const canceled = await svc(["schedules", "cancel", "room-sched", kept.expiryJob]);
    expect(canceled.stdout).toContain("1 job canceled in shard room-sched");
    const table = await svc(["schedules", "list", "room-sched"]);
    expect(table.stdout).toMatch(/^ID\s+STATE\s+DUE/);
    expect(table.stdout).toContain("3 jobs");

    // Stop the process before the last job is due, start it again on the same state: the job runs.
    await app!.stop();
    ({ url } = await start());
    await until(async () => !(await bodies(url, ann)).includes("survives a restart"), 60_000);
    expect(await bodies(url, ann)).toEqual(["kept by the operator"]);
    const done = await svc(["schedules", "list", "room-sched", "--json"]);
    const states = done.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { state: string }).state)
      .sort();
    expect(states).toEqual(["canceled", "succeeded", "succeeded"]);
  }, 300_000);

  it("lets the author watch an ephemeral message's job live with @svc/client, and nobody else", async () => {
    const { url } = app ?? (await start());
    const author = await signUpForToken(app!, "watcher-scheduler@example.com");
    const onlooker = await signUpForToken(app!, "onlooker-scheduler@example.com");
    const { expiryJob } = (await rpc(url, author, "messages:sendEphemeral", {
      body: "watch me go",
      channel: "ephemeral",
      seconds: 5,
    })) as { expiryJob: string };
    const watch = (bearer: string, seen: (JobState | null)[]) =>
      createClient({ url, bearer, shardKey: "room-sched" }).subscribe(
        scheduledJob,
        { id: expiryJob },
        (job) => seen.push(job?.state ?? null),
      );
    const authorSaw: (JobState | null)[] = [];
    const onlookerSaw: (JobState | null)[] = [];
    const stops = [watch(author, authorSaw), watch(onlooker, onlookerSaw)];
    await until(async () => authorSaw.includes("succeeded"));
    expect(authorSaw).toEqual(["pending", "succeeded"]);
    expect(onlookerSaw).toEqual([null]);
    expect(await bodies(url, author)).not.toContain("watch me go");
    for (const stop of stops) stop();
  }, 180_000);

  it("lists and cancels jobs across every shard with svc schedules --all-shards", async () => {
    const { url } = app ?? (await start());
    const cy = await signUpForToken(app!, "cy-scheduler@example.com");
    const rooms = ["room-across-1", "room-across-2"];
    for (const room of rooms)
      await rpc(
        url,
        cy,
        "messages:sendEphemeral",
        { body: room, channel: "ephemeral", seconds: 600 },
        room,
      );
    const across = async (...args: string[]) =>
      (await svc(["schedules", "list", "--all-shards", "--search", "room-across-", ...args]))
        .stdout;
    const pendingJobs = async () =>
      (await across("--state", "pending", "--json"))
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { shard: string; function: string });
    // The registry learns of the shards from their reports (every 200 ms here).
    await until(async () => (await pendingJobs()).length === 2);
    expect((await pendingJobs()).map((job) => [job.shard, job.function])).toEqual([
      ["room-across-1", "messages:expire"],
      ["room-across-2", "messages:expire"],
    ]);
    const table = await across();
    expect(table).toMatch(/^SHARD\s+ID\s+STATE/);
    expect(table).toContain("2 jobs");

    const canceled = await svc([
      "schedules",
      "cancel",
      "--all-shards",
      "--search",
      "room-across-",
      "--function",
      "messages:expire",
    ]);
    expect(canceled.stdout).toContain("1 canceled in shard room-across-1");
    expect(canceled.stdout).toContain("1 canceled in shard room-across-2");
    expect(canceled.stdout).toContain("2 jobs canceled across shards");
    expect(await pendingJobs()).toEqual([]);
    // A cancel naming no jobs is refused, whichever shards it would reach.
    await expect(svc(["schedules", "cancel", "--all-shards"])).rejects.toMatchObject({ code: 1 });
  }, 180_000);
});
