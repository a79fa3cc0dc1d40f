/**
 * Call records (issue 29) in workerd: every entry point leaves one record
 * with its fields, failures keep their stack server-side only, credentials
 * and unopted arguments never reach a record, the store keeps its newest
 * records past its size, and a failing store never fails a call.
 */
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type CallRecord, recordBodies } from "../src/index.ts";
import { TAIL_POLL_MS } from "../src/logs-admin/tail.ts";
import { isoTime } from "../src/observability/iso-time.ts";
import { partitionName } from "../src/observability/plan.ts";
import { LINE_BUDGET_CHARS } from "../src/observability/store/console-printer.ts";
import type { LogStoreEndpoint, RecordFilters } from "../src/observability/store/endpoint.ts";
import { unpackRollups, unpackTotals } from "../src/observability/store/packed-rollups.ts";
import { watchCallLines } from "./call-lines.ts";
import { callRecord } from "./call-record.ts";
import { brokenStoreWorker, countedStoreWorker, recordingWorker as worker } from "./worker.ts";

const ADMIN = { authorization: "Bearer test-admin-token-0123456789abcdef" };

/** A request to the recording worker (its records' writes run under the context's waitUntil). */
function call(url: string, init?: RequestInit): Promise<Response> {
  return worker.fetch(new Request(`http://svc.test${url}`, init), env, createExecutionContext());
}

const admin = (path: string, headers: Record<string, string> = {}) =>
  call(path, { headers: { ...ADMIN, ...headers } });

function rpc(
  path: string,
  args?: unknown,
  options: { user?: string; headers?: Record<string, string>; shardKey?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...options.headers,
  };
  if (options.user) headers["x-test-user"] = options.user;
  const body = JSON.stringify({ path, args });
  // As any HTTP client would (an in-process Request has no length header of its own).
  headers["content-length"] = String(new TextEncoder().encode(body).byteLength);
  const shard = options.shardKey === undefined ? "" : `?shardKey=${options.shardKey}`;
  return call(`/_svc/rpc${shard}`, { method: "POST", headers, body });
}

/** An RPC answer's `value`, failing loudly on an error answer. */
async function answerValue<T>(answer: Promise<Response>): Promise<T> {
  const response = await answer;
  const body = (await response.json()) as { value: T };
  if (response.status !== 200)
    throw new Error(`answered ${response.status}: ${JSON.stringify(body)}`);
  return body.value;
}

afterEach(() => {
  vi.restoreAllMocks();
});

async function records(query = ""): Promise<CallRecord[]> {
  const response = await admin(`/_svc/admin/logs?limit=200${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { records: CallRecord[] }).records;
}

/**
 * When this file started: the project's files share one log store (`isolate: false`), so a
 * search skips records of the files that ran before this one.
 */
const FILE_STARTED = Date.now();

/** Polls the logs API until a record matches (records are written ~100 ms after their call). */
async function recordWhere(
  match: (record: CallRecord) => boolean,
  query = "",
): Promise<CallRecord> {
  const deadline = Date.now() + 8_000;
  for (;;) {
    const found = (await records(`${query}&since=${FILE_STARTED}`)).find(match);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no record matched within 8 s (query ${query})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("call records", () => {
  it("record a REST call with its route, shard, caller, status, duration and sizes", async () => {
    const response = await call("/_svc/rest/rest/inspect?name=ann&shardKey=obs-rest", {
      headers: { "x-test-user": "ann" },
    });
    expect(response.status).toBe(200);
    const size = Number(response.headers.get("content-length"));
    expect(size).toBeGreaterThan(0);
    const record = await recordWhere((r) => r.shardKey === "obs-rest", "&function=rest:inspect");
    expect(record).toMatchObject({
      entry: "rest",
      route: "rest:inspect",
      method: "GET",
      shardKey: "obs-rest",
      caller: { kind: "user", id: "ann" },
      status: 200,
      code: null,
      bytesOut: size,
      error: null,
    });
    expect(record.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(record.time)).toBeGreaterThan(Date.now() - 60_000);
    expect(record.durationMs).toBeGreaterThanOrEqual(0);
    expect(record).not.toHaveProperty("args");
  });

  it("declare and record a non-ASCII answer's size in UTF-8 bytes, not characters", async () => {
    const name = "zoë 🎉 日本";
    const response = await call(
      `/_svc/rest/rest/inspect?name=${encodeURIComponent(name)}&shardKey=obs-utf8`,
    );
    expect(response.status).toBe(200);
    const answer = await response.text();
    expect(JSON.parse(answer)).toMatchObject({ args: { name } });
    const bytes = new TextEncoder().encode(answer).byteLength;
    expect(bytes).toBeGreaterThan(answer.length);
    expect(Number(response.headers.get("content-length"))).toBe(bytes);
    const record = await recordWhere((r) => r.shardKey === "obs-utf8", "&function=rest:inspect");
    expect(record.bytesOut).toBe(bytes);
  });

  it("record an RPC call with the handler's console lines (credentials scrubbed) under its request id", async () => {
    const value = await answerValue<{ requestId: string }>(
      rpc("observed:chatty", { word: "hello" }, { user: "bob" }),
    );
    const record = await recordWhere((r) => r.requestId === value.requestId);
    expect(record).toMatchObject({
      entry: "rpc",
      route: "observed:chatty",
      method: "POST",
      shardKey: "default",
      caller: { kind: "user", id: "bob" },
      status: 200,
    });
    expect(record.bytesIn).toBeGreaterThan(0);
    expect(record.logs.map((line) => [line.level, line.message])).toEqual([
      ["log", 'chatty says hello {"n":1}'],
      ["warn", "careful: Authorization: [redacted]"],
    ]);
  });

  it("keep a failing mutation's message and stack in its record, never in the client's answer", async () => {
    const response = await rpc("observed:explode", { why: "testing" }, { user: "carol" });
    expect(response.status).toBe(500);
    const answer = await response.text();
    expect(answer).not.toMatch(/kaboom|secret-path|at /);
    expect(JSON.parse(answer)).toMatchObject({ code: "INTERNAL" });
    const record = await recordWhere(
      (r) => r.route === "observed:explode" && r.caller.kind === "user",
    );
    expect(record).toMatchObject({ status: 500, code: "INTERNAL", entry: "rpc" });
    // The problem answer's size, as its declared length says.
    expect(record.bytesOut).toBe(new TextEncoder().encode(answer).byteLength);
    expect(record.bytesOut).toBe(Number(response.headers.get("content-length")));
    expect(record.error?.message).toBe("kaboom in /srv/app/secret-path.ts because testing");
    expect(record.error?.stack).toContain("kaboom");
    expect(record.error?.stack).toMatch(/observed\.ts/);
    expect(record.logs).toEqual([
      expect.objectContaining({ level: "error", message: "about to explode: testing" }),
    ]);
  });

  it("record each cron job run as the service, failures with their error", async () => {
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const tick = await recordWhere((r) => r.cron?.job === "tick", "&entry=cron");
    expect(tick).toMatchObject({
      entry: "cron",
      route: "jobs:record",
      method: null,
      shardKey: "default",
      caller: { kind: "service", id: "cron:tick" },
      status: 200,
      cron: { job: "tick", schedule: "*/5 * * * *" },
    });
    const broken = await recordWhere((r) => r.cron?.job === "broken", "&entry=cron");
    expect(broken).toMatchObject({ status: 500, code: "INTERNAL" });
    expect(broken.error?.stack).toContain("job broken failed on purpose");
  });

  it("record each queue message with its id, attempt and whether it was its last", async () => {
    const batch = createMessageBatch("svc-test-jobs", [
      { id: "obs-ok", body: { text: "obs" }, timestamp: new Date(), attempts: 1 },
      { id: "obs-last", body: { text: "x", poison: true }, timestamp: new Date(), attempts: 4 },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    await waitOnExecutionContext(ctx);
    const ok = await recordWhere((r) => r.queue?.messageId === "obs-ok", "&entry=queue");
    expect(ok).toMatchObject({
      route: "jobs:consume",
      caller: { kind: "service", id: "queue:svc-test-jobs" },
      status: 200,
      queue: { queue: "svc-test-jobs", attempt: 1, messages: 1, deadLettered: false },
    });
    const last = await recordWhere((r) => r.queue?.messageId === "obs-last", "&entry=queue");
    expect(last).toMatchObject({ status: 500, queue: { attempt: 4, deadLettered: true } });
    const view = await (await admin("/_svc/admin/logs/queues")).json();
    expect(view).toMatchObject({
      queues: expect.arrayContaining([
        expect.objectContaining({ queue: "svc-test-jobs", function: "jobs:consume" }),
      ]),
    });
    const queue = (
      view as { queues: { queue: string; deadLettered: number; failures: number }[] }
    ).queues.find((q) => q.queue === "svc-test-jobs");
    expect(queue?.deadLettered).toBeGreaterThanOrEqual(1);
    expect(queue?.failures).toBeGreaterThanOrEqual(1);
  });

  it("record a stream call, and a subscription's connection and each of its query runs", async () => {
    const stream = await rpc("messages:ticks", { count: 2 }, { user: "erin" });
    expect(stream.status).toBe(200);
    await stream.text();
    await recordWhere((r) => r.entry === "stream" && r.route === "messages:ticks");
    const upgrade = await call("/_svc/ws?shardKey=obs-ws", {
      headers: { upgrade: "websocket", "sec-websocket-protocol": "svc.v1", "x-test-user": "erin" },
    });
    expect(upgrade.status).toBe(101);
    const ws = upgrade.webSocket!;
    ws.accept();
    const value = new Promise((resolve) => ws.addEventListener("message", resolve, { once: true }));
    ws.send(
      JSON.stringify({
        type: "subscribe",
        id: "s1",
        path: "observed:chatty",
        args: { word: "live" },
      }),
    );
    await value;
    ws.close();
    const connect = await recordWhere((r) => r.entry === "ws" && r.route === "/_svc/ws");
    expect(connect).toMatchObject({
      status: 101,
      shardKey: "obs-ws",
      caller: { kind: "user", id: "erin" },
    });
    const run = await recordWhere((r) => r.entry === "ws" && r.route === "observed:chatty");
    expect(run).toMatchObject({
      status: 200,
      shardKey: "obs-ws",
      caller: { kind: "user", id: "erin" },
    });
    expect(run.logs[0]?.message).toBe('chatty says live {"n":1}');
  });

  it("record an HTTP action under its route pattern, a throwing one with its stack kept back", async () => {
    const hello = await call("/hello/frank-4711", { headers: { "x-test-user": "frank" } });
    expect(await hello.json()).toEqual({ name: "frank-4711", kind: "user", route: "/hello/:name" });
    const broken = await call("/broken");
    expect(broken.status).toBe(500);
    expect(await broken.text()).not.toMatch(/secret internals|srv\/app/);
    const record = await recordWhere(
      (r) => r.route === "GET /hello/:name" && r.caller.kind === "user",
      "&entry=http",
    );
    expect(record).toMatchObject({
      entry: "http",
      method: "GET",
      caller: { kind: "user", id: "frank" },
      status: 200,
    });
    expect(JSON.stringify(record)).not.toContain("frank-4711");
    const failed = await recordWhere((r) => r.route === "GET /broken", "&entry=http");
    expect(failed).toMatchObject({ status: 500, code: "INTERNAL" });
    expect(failed.error?.stack).toContain("secret internals at /srv/app.ts:12");
    // The action runs in the worker: its console lines (and svc's about its error) are its record's.
    expect(failed.logs.map((line) => [line.level, line.message])).toEqual([
      ["warn", "breaking on purpose"],
      ["error", "svc: unhandled error Error: secret internals at /srv/app.ts:12"],
    ]);
  });

  it("keep concurrent calls' records apart, each with its own caller and lines", async () => {
    const users = Array.from({ length: 12 }, (_, i) => `concurrent-${i}`);
    const answers = await Promise.all(
      users.map(async (user) => {
        const value = await answerValue<{ requestId: string }>(
          rpc("observed:chatty", { word: user }, { user }),
        );
        return { user, requestId: value.requestId };
      }),
    );
    expect(new Set(answers.map((answer) => answer.requestId)).size).toBe(users.length);
    for (const { user, requestId } of answers) {
      const record = await recordWhere((r) => r.requestId === requestId);
      expect(record.caller).toEqual({ kind: "user", id: user });
      expect(record.logs[0]?.message).toBe(`chatty says ${user} {"n":1}`);
    }
  });

  it("keep the lines of calls waiting at once in one shard apart", async () => {
    const words = Array.from({ length: 12 }, (_, i) => `paced-${i}`);
    const answers = await Promise.all(
      words.map(async (word) => {
        return { word, requestId: await answerValue<string>(rpc("observed:paced", { word })) };
      }),
    );
    for (const { word, requestId } of answers) {
      const record = await recordWhere((r) => r.requestId === requestId);
      expect(record.logs.map((line) => line.message)).toEqual([`before ${word}`, `after ${word}`]);
    }
  });

  it("keep a mutation's lines from its transaction, deep awaits and nested mutations", async () => {
    const words = Array.from({ length: 6 }, (_, i) => `layer-${i}`);
    const [mutations, actions] = await Promise.all([
      Promise.all(
        words.map((word) =>
          answerValue<{ requestId: string; limitSeen: number }>(rpc("observed:layered", { word })),
        ),
      ),
      Promise.all(words.map((word) => answerValue<string>(rpc("observed:viaAction", { word })))),
    ]);
    for (const [i, word] of words.entries()) {
      // The app's own stack trace limit holds around svc's look at the stack.
      expect(mutations[i]!.limitSeen).toBe(1);
      const layered = await recordWhere((r) => r.requestId === mutations[i]!.requestId);
      expect(layered.logs.map((line) => line.message)).toEqual([
        `start ${word}`,
        `deep ${word}`,
        `nested ${word}`,
        `end ${word}`,
      ]);
      const viaAction = await recordWhere((r) => r.requestId === actions[i]);
      expect(viaAction.logs.map((line) => line.message)).toEqual([
        `action ${word}`,
        `nested ${word}`,
      ]);
    }
  });

  it("keep a subscription re-run's lines apart from the mutation whose commit started it", async () => {
    const upgrade = await call("/_svc/ws?shardKey=obs-rerun", {
      headers: { upgrade: "websocket", "sec-websocket-protocol": "svc.v1" },
    });
    expect(upgrade.status).toBe(101);
    const ws = upgrade.webSocket!;
    ws.accept();
    const values: unknown[] = [];
    ws.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { type: string; value?: unknown };
      if (message.type === "value") values.push(message.value);
    });
    ws.send(
      JSON.stringify({
        type: "subscribe",
        id: "w1",
        path: "observed:watched",
        args: { tag: "seen" },
      }),
    );
    await expect.poll(() => values.length).toBe(1);
    const { requestId } = await answerValue<{ requestId: string }>(
      rpc("observed:layered", { word: "commit" }, { shardKey: "obs-rerun" }),
    );
    // The commit re-ran the query: a second value, counting the mutation's notes.
    await expect.poll(() => values.length).toBe(2);
    ws.close();
    const mutation = await recordWhere((r) => r.requestId === requestId);
    expect(mutation.logs.map((line) => line.message)).toEqual([
      "start commit",
      "deep commit",
      "nested commit",
      "end commit",
    ]);
    const runs = async () =>
      (await records(`&since=${FILE_STARTED}`)).filter(
        (r) => r.entry === "ws" && r.route === "observed:watched" && r.shardKey === "obs-rerun",
      );
    await expect.poll(async () => (await runs()).length).toBe(2);
    for (const run of await runs()) {
      expect(run.logs.map((line) => line.message)).toEqual(["watched seen"]);
    }
  });

  it("keep lines printed by work a finished call left running out of every record", async () => {
    const left = await answerValue<string>(rpc("observed:leaves", { word: "leaver" }));
    // Later calls in the same shard, each spanning ticks of the leftover timer.
    const later: string[] = [];
    for (let i = 0; i < 40; i++)
      later.push(await answerValue<string>(rpc("observed:paced", { word: `later-${i}` })));
    for (const requestId of [left, ...later]) {
      const record = await recordWhere((r) => r.requestId === requestId);
      expect(record.logs.map((line) => line.message)).not.toContain("left behind by leaver");
    }
  });

  it("record an admin call with its operator and a route without ids", async () => {
    const response = await admin("/_svc/admin/auth/users/user-123/sessions");
    expect(response.status).toBe(200);
    // Its body has no declared length: the record is made once the body went out.
    const answered = await response.text();
    const record = await recordWhere(
      (r) => r.entry === "admin" && r.caller.kind === "operator",
      "&entry=admin",
    );
    expect(record).toMatchObject({
      route: "GET /_svc/admin/auth/*",
      caller: { kind: "operator", id: "alice" },
      status: 200,
    });
    expect(JSON.stringify(record)).not.toContain("user-123");
    expect(record.bytesOut).toBe(new TextEncoder().encode(answered).byteLength);
  });

  it("keep an admin call's own console lines, as any call's", async () => {
    const response = await admin("/_svc/admin/auth/console-line");
    expect(response.status).toBe(200);
    await response.text();
    const record = await recordWhere(
      (r) => r.logs.some((line) => line.message === "the auth admin wrote a line"),
      "&entry=admin",
    );
    expect(record).toMatchObject({
      entry: "admin",
      route: "GET /_svc/admin/auth/*",
      logs: [{ level: "info", message: "the auth admin wrote a line" }],
    });
  });

  it("keep the admin API's own calls out of logs, groups and metrics unless asked", async () => {
    await rpc("observed:chatty", { word: "app-first" });
    // A refused admin call (reads of the records are not recorded): it would group as an error.
    const refused = await admin("/_svc/admin/data/shards?colour=admin-noise");
    expect(refused.status).toBe(400);
    const noisy = await recordWhere(
      (r) => r.entry === "admin" && r.code === "VALIDATION_FAILED",
      "&admin=include",
    );
    await recordWhere((r) => r.route === "observed:chatty");
    const appOnly = await records(`&since=${FILE_STARTED}`);
    expect(appOnly.length).toBeGreaterThan(0);
    expect(appOnly.some((r) => r.entry === "admin")).toBe(false);
    const included = await records(`&since=${FILE_STARTED}&admin=include`);
    expect(included.map((r) => r.requestId)).toContain(noisy.requestId);
    expect((await records("&entry=admin")).map((r) => r.requestId)).toContain(noisy.requestId);
    expect((await admin("/_svc/admin/logs?admin=maybe")).status).toBe(400);

    type Groups = { groups: { function: string; sample: CallRecord }[] };
    const groupsOf = async (query: string) =>
      ((await (await admin(`/_svc/admin/logs/groups${query}`)).json()) as Groups).groups;
    expect((await groupsOf("")).some((g) => g.sample.entry === "admin")).toBe(false);
    expect((await groupsOf("?admin=include")).some((g) => g.sample.entry === "admin")).toBe(true);

    type Metrics = { functions: { function: string; entry: string }[] };
    const metricsOf = async (query: string) =>
      ((await (await admin(`/_svc/admin/logs/metrics${query}`)).json()) as Metrics).functions;
    const appMetrics = await metricsOf("");
    expect(appMetrics.some((f) => f.function === "observed:chatty")).toBe(true);
    expect(appMetrics.some((f) => f.entry === "admin")).toBe(false);
    expect((await metricsOf("?admin=include")).some((f) => f.entry === "admin")).toBe(true);

    const prometheus = await (await admin("/_svc/admin/metrics")).text();
    expect(prometheus).toMatch(
      /^svc_admin_calls_total\{function="GET \/_svc\/admin\/data\/\*",entry="admin",code="VALIDATION_FAILED"\} \d+$/m,
    );
    expect(prometheus).not.toMatch(/^svc_calls_total\{[^}]*entry="admin"/m);
    expect(prometheus).toMatch(/^# TYPE svc_admin_call_duration_seconds histogram$/m);
  });

  it("never record a cookie, an authorization value or arguments a procedure did not opt in", async () => {
    const cookie = "session_token=cookie-secret-4711";
    const bearer = "Bearer bearer-secret-0815";
    const headers = { cookie, authorization: bearer, "x-test-user": "dave" };
    await rpc("observed:quiet", { note: "note-secret-1234" }, { headers });
    await rpc(
      "observed:signIn",
      { email: "dave@example.com", password: "pw-secret-9999" },
      { headers },
    );
    await call("/_svc/rest/rest/inspect?name=x", { headers });
    const signIn = await recordWhere((r) => r.route === "observed:signIn");
    expect(signIn.args).toEqual({ email: "dave@example.com", password: "[redacted]" });
    const quiet = await recordWhere((r) => r.route === "observed:quiet");
    expect(quiet).not.toHaveProperty("args");
    const all = JSON.stringify(await records());
    for (const secret of [
      "cookie-secret-4711",
      "bearer-secret-0815",
      "note-secret-1234",
      "pw-secret-9999",
    ]) {
      expect(all).not.toContain(secret);
    }
  });

  it("keep at most 32 console lines of a call and count the rest", async () => {
    const value = await answerValue<number>(rpc("observed:flood"));
    expect(value).toBe(100);
    const record = await recordWhere((r) => r.route === "observed:flood");
    expect(record.logs).toHaveLength(32);
    expect(record.logsDropped).toBe(68);
  });

  it("filter by function, status, user, shard and text, and page by cursor", async () => {
    await recordWhere((r) => r.route === "observed:explode");
    const failed = await records("&status=5xx");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r) => r.status >= 500)).toBe(true);
    expect(
      (await records("&user=carol")).every((r) => "id" in r.caller && r.caller.id === "carol"),
    ).toBe(true);
    expect((await records("&q=KABOOM")).map((r) => r.route)).toContain("observed:explode");
    const first = (await (await admin("/_svc/admin/logs?limit=2")).json()) as {
      records: CallRecord[];
      cursor: string;
    };
    expect(first.records).toHaveLength(2);
    const second = (await (
      await admin(`/_svc/admin/logs?limit=2&cursor=${first.cursor}`)
    ).json()) as {
      records: CallRecord[];
    };
    expect(second.records.map((r) => r.requestId)).not.toContain(first.records[0]!.requestId);
    expect(Date.parse(second.records[0]!.time)).toBeLessThanOrEqual(
      Date.parse(first.records[1]!.time),
    );
  });

  it("refuse unknown filters and malformed values, and answer 401 without the admin token", async () => {
    const issues = async (query: string) => {
      const response = await admin(`/_svc/admin/logs?${query}`);
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { code: string; errors: { path: string }[] };
      expect(problem.code).toBe("VALIDATION_FAILED");
      return problem.errors.map((issue) => issue.path).sort();
    };
    expect(await issues("colour=red")).toEqual(["query.colour"]);
    expect(await issues("status=weird&since=yesterday")).toEqual(["query.since", "query.status"]);
    expect(await issues("entry=carrier-pigeon&limit=500")).toEqual(["query.entry", "query.limit"]);
    const post = await call("/_svc/admin/logs", { method: "POST", headers: ADMIN });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
    const anonymous = await call("/_svc/admin/logs");
    expect(anonymous.status).toBe(401);
    const metrics = await call("/_svc/admin/metrics");
    expect(metrics.status).toBe(401);
  });

  it("answer one record by request id, and 404 for an unknown one", async () => {
    const { value } = (await (await rpc("observed:chatty", { word: "detail" })).json()) as {
      value: { requestId: string };
    };
    await recordWhere((r) => r.requestId === value.requestId);
    const found = await admin(`/_svc/admin/logs/${value.requestId}`);
    expect(((await found.json()) as { record: CallRecord }).record.requestId).toBe(value.requestId);
    expect((await admin("/_svc/admin/logs/00000000-0000-0000-0000-000000000000")).status).toBe(404);
  });

  it("group errors by code, function and message shape", async () => {
    for (const why of ["first 1", "second 22"]) await rpc("observed:explode", { why });
    await recordWhere(
      (r) => r.route === "observed:explode" && r.error?.message.includes("second 22") === true,
    );
    const { groups } = (await (await admin("/_svc/admin/logs/groups")).json()) as {
      groups: {
        code: string;
        function: string;
        shape: string;
        count: number;
        sample: CallRecord;
      }[];
    };
    const group = groups.find(
      (g) => g.function === "observed:explode" && g.shape.includes("because"),
    );
    expect(group).toMatchObject({ code: "INTERNAL" });
    expect(group?.shape).toBe("kaboom in /srv/app/secret-path.ts because second <n>");
    const firstShape = groups.find(
      (g) => g.shape === "kaboom in /srv/app/secret-path.ts because first <n>",
    );
    expect(firstShape?.count).toBe(1);
    expect(group?.sample.route).toBe("observed:explode");
  });

  it("serve metrics per function over a window and Prometheus totals", async () => {
    await rpc("observed:chatty", { word: "metrics" });
    await recordWhere((r) => r.route === "observed:chatty");
    const answer = (await (await admin("/_svc/admin/logs/metrics?window=1h")).json()) as {
      functions: {
        function: string;
        entry: string;
        calls: number;
        errors: number;
        p50Ms: number;
        series: unknown[];
      }[];
      overall: { calls: number; errors: number; p95Ms: number | null };
    };
    const chatty = answer.functions.find(
      (f) => f.function === "observed:chatty" && f.entry === "rpc",
    );
    expect(chatty?.calls).toBeGreaterThanOrEqual(1);
    expect(chatty?.series).toHaveLength(60);
    expect(typeof chatty?.p50Ms).toBe("number");
    // The Overview's app health: every function of the window together.
    const sum = (of: (f: { calls: number; errors: number }) => number) =>
      answer.functions.reduce((total, f) => total + of(f), 0);
    expect(answer.overall.calls).toBe(sum((f) => f.calls));
    expect(answer.overall.errors).toBe(sum((f) => f.errors));
    expect(answer.overall.p95Ms).toBeGreaterThan(0);
    const prometheus = await admin("/_svc/admin/metrics");
    expect(prometheus.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    const text = await prometheus.text();
    expect(text).toMatch(
      /^svc_calls_total\{function="observed:chatty",entry="rpc",code="OK"\} \d+$/m,
    );
    expect(text).toMatch(
      /^svc_call_duration_seconds_bucket\{function="observed:chatty",entry="rpc",le="\+Inf"\} \d+$/m,
    );
    expect((await admin("/_svc/admin/logs/metrics?window=2h")).status).toBe(400);
  });

  it("stream new records to a live tail", async () => {
    const response = await admin("/_svc/admin/logs/tail?function=observed:chatty");
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    // Wait for the tail to start before calling, so the call is news to it.
    while (!text.includes("svc log tail")) text += decoder.decode((await reader.read()).value);
    const { value } = (await (await rpc("observed:chatty", { word: "tail" })).json()) as {
      value: { requestId: string };
    };
    while (!text.includes(value.requestId)) text += decoder.decode((await reader.read()).value);
    await reader.cancel();
    expect(text).toMatch(/event: record\nid: \S+\ndata: \{/);
  });

  it("stop polling the store as soon as a tail's reader goes away", async () => {
    const store = env.COUNTED_LOGS.getByName(partitionName(0));
    const response = await countedStoreWorker.fetch(
      new Request("http://svc.test/_svc/admin/logs/tail", { headers: ADMIN }),
      env,
      createExecutionContext(),
    );
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("svc log tail")) text += decoder.decode((await reader.read()).value);
    // Polling: a read every TAIL_POLL_MS while the reader stays.
    const reading = await store.afterCalls();
    await new Promise((resolve) => setTimeout(resolve, TAIL_POLL_MS * 2.5));
    expect(await store.afterCalls()).toBeGreaterThanOrEqual(reading + 2);
    await reader.cancel();
    // A read already under way may still land (within a poll interval, even on a loaded
    // machine); after that, none.
    await new Promise((resolve) => setTimeout(resolve, TAIL_POLL_MS));
    const atCancel = await store.afterCalls();
    await new Promise((resolve) => setTimeout(resolve, TAIL_POLL_MS * 3));
    expect(await store.afterCalls()).toBe(atCancel);
  });
});

describe("the log store", () => {
  const record = (n: number): CallRecord =>
    callRecord({
      requestId: `req-${n}`,
      time: new Date(Date.now() + n).toISOString(),
      logs: [{ level: "log", at: 0, message: "x".repeat(200) }],
    });

  it("refuses a batch that is not records' JSON texts, and stores none of it", async () => {
    const stub = env.SVC_LOGS.getByName("bad-batch");
    // Called in the object itself: a rejection over RPC is also reported as the object's own.
    await runInDurableObject(stub, async (object) => {
      const instance = object as unknown as LogStoreEndpoint;
      await expect(instance.write([JSON.stringify(record(1)), "{not json"])).rejects.toThrow(
        /item 1 is not one/,
      );
      await expect(instance.write([record(2)] as never)).rejects.toThrow(/item 0 is not one/);
      await expect(instance.write("[]" as never)).rejects.toThrow(/takes an array/);
    });
    expect((await (stub as unknown as LogStoreEndpoint).stats()).records).toBe(0);
  });

  it("keeps the newest records once past its size", async () => {
    const store = env.SMALL_LOGS.getByName("retention") as unknown as LogStoreEndpoint;
    for (let batch = 0; batch < 10; batch++) {
      await store.write(recordBodies(Array.from({ length: 10 }, (_, i) => record(batch * 10 + i))));
    }
    const stats = await store.stats();
    expect(stats.bytes).toBeLessThanOrEqual(20_000);
    expect(stats.records).toBeLessThan(100);
    const kept = await store.list({}, null, 200);
    expect(kept[0]?.record.requestId).toBe("req-99");
    const ids = kept.map((row) => Number(row.record.requestId.slice(4)));
    expect(Math.min(...ids)).toBe(100 - kept.length);
    const totals = unpackTotals(await store.totals());
    expect(totals.reduce((sum, row) => sum + row.calls, 0)).toBe(100);
  });

  it("sums a window's roll-ups per bucket and per code, packed and unpacked exactly", async () => {
    const store = env.SVC_LOGS.getByName("rollup-figures") as unknown as LogStoreEndpoint;
    const quarter = 6 * 60 * 60 * 1000;
    const current = Math.floor(Date.now() / quarter) * quarter;
    const previous = current - quarter;
    const at = (time: number, fields: Partial<CallRecord>): CallRecord => ({
      ...record(0),
      requestId: `rollup-${Math.random()}`,
      time: new Date(time).toISOString(),
      logs: [],
      ...fields,
    });
    const failed = (code: string, status: number) => ({
      status,
      code,
      error: { message: code, stack: null },
    });
    await store.write(
      recordBodies([
        at(previous + 1_000, { durationMs: 1 }),
        at(previous + 2_000, { durationMs: 3 }),
        at(previous + 3_000, { durationMs: 7.5 }),
        at(current, { durationMs: 30, ...failed("INTERNAL", 500) }),
        at(previous, { entry: "rest", route: "c:d", durationMs: 0.5, ...failed("NOT_FOUND", 404) }),
        // Before the window: in the totals Prometheus reads, not in the window's.
        at(previous - quarter, { durationMs: 2 }),
      ]),
    );
    const histogram = (...counts: [index: number, count: number][]) => {
      const buckets = new Array<number>(15).fill(0);
      for (const [index, count] of counts) buckets[index] = count;
      return buckets;
    };
    const { series, totals } = unpackRollups(await store.rollups("quarter", previous));
    const byKey = <T>(rows: T[], key: (row: T) => string) =>
      [...rows].sort((a, b) => key(a).localeCompare(key(b)));
    expect(byKey(series, (row) => `${row.bucket} ${row.entry}`)).toEqual([
      { bucket: previous, entry: "rest", route: "c:d", calls: 1, errors: 1 },
      { bucket: previous, entry: "rpc", route: "x:y", calls: 3, errors: 0 },
      { bucket: current, entry: "rpc", route: "x:y", calls: 1, errors: 1 },
    ]);
    expect(byKey(totals, (row) => `${row.entry} ${row.code}`)).toEqual([
      {
        entry: "rest",
        route: "c:d",
        code: "NOT_FOUND",
        calls: 1,
        durationSum: 0.5,
        histogram: histogram([0, 1]),
      },
      {
        entry: "rpc",
        route: "x:y",
        code: "",
        calls: 3,
        durationSum: 11.5,
        histogram: histogram([0, 1], [2, 1], [3, 1]),
      },
      {
        entry: "rpc",
        route: "x:y",
        code: "INTERNAL",
        calls: 1,
        durationSum: 30,
        histogram: histogram([5, 1]),
      },
    ]);
    const ever = unpackTotals(await store.totals());
    expect(ever.find((row) => row.entry === "rpc" && row.code === "")).toMatchObject({
      calls: 4,
      durationSum: 13.5,
      histogram: histogram([0, 1], [1, 1], [2, 1], [3, 1]),
    });
    // An empty window packs to empty lists.
    expect(unpackRollups(await store.rollups("quarter", current + quarter))).toEqual({
      series: [],
      totals: [],
    });
  });

  it("finds each batch's records by text and by status after several batches", async () => {
    const store = env.SVC_LOGS.getByName("filters") as unknown as LogStoreEndpoint;
    const failing = (n: number, status: number, code: string): CallRecord => ({
      ...record(n),
      status,
      code,
      logs: [],
      error: { message: `${code} in call ${n}`, stack: null },
    });
    for (let batch = 0; batch < 3; batch++) {
      await store.write(
        recordBodies([
          {
            ...record(batch * 10),
            logs: [{ level: "log", at: 0, message: `batch-${batch}-line` }],
          },
          record(batch * 10 + 1),
          failing(batch * 10 + 2, 404, "NOT_FOUND"),
          failing(batch * 10 + 3, 503, "UNAVAILABLE"),
        ]),
      );
    }
    const ids = async (filters: RecordFilters) =>
      (await store.list(filters, null, 50)).map((row) => row.record.requestId).sort();
    // The text of the second batch belongs to its own first record, not a neighbour's.
    expect(await ids({ q: "batch-1-line" })).toEqual(["req-10"]);
    expect(await ids({ q: "UNAVAILABLE in call 23" })).toEqual(["req-23"]);
    expect(await ids({ status: { kind: "class", value: 2 } })).toEqual(
      ["req-0", "req-1", "req-10", "req-11", "req-20", "req-21"].sort(),
    );
    expect(await ids({ status: { kind: "class", value: 4 } })).toEqual([
      "req-12",
      "req-2",
      "req-22",
    ]);
    expect(await ids({ status: { kind: "status", value: 503 } })).toEqual([
      "req-13",
      "req-23",
      "req-3",
    ]);
    expect(await ids({ status: { kind: "status", value: 200 } })).toHaveLength(6);
  });

  it("print each record's line from the store, past one invocation's budget from its alarm", async () => {
    const watched = watchCallLines();
    const id = env.SVC_LOGS.idFromName("console-lines");
    const store = env.SVC_LOGS.get(id) as unknown as LogStoreEndpoint;
    const chatty = (n: number): CallRecord => ({
      ...record(n),
      logs: [{ level: "log", at: 0, message: `line of call ${n} `.padEnd(1000, "x") }],
    });
    await store.write(recordBodies([record(1000), record(1001)]), { console: true });
    expect(watched.records().map((r) => r.requestId)).toEqual(["req-1000", "req-1001"]);
    expect(watched.records()[0]).toMatchObject({ svc: "call", message: "svc rpc x:y 200 1ms" });
    watched.lines.length = 0;

    // About 330 KB of lines: more than Workers Logs keeps of one invocation.
    const batch = Array.from({ length: 250 }, (_, n) => chatty(n));
    await store.write(recordBodies(batch), { console: true });
    const first = watched.lines.length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(batch.length);
    expect(watched.lines.join("").length).toBeLessThanOrEqual(LINE_BUDGET_CHARS);
    // A batch written while lines wait prints after them, in order.
    await store.write(recordBodies([record(2000)]), { console: true });
    expect(watched.lines).toHaveLength(first);
    // The runtime may fire the store's next alarm itself while the test runs one: poll until
    // the backlog has printed, running any alarm still pending.
    const expected = [...batch.map((r) => r.requestId), "req-2000"];
    await vi.waitFor(
      async () => {
        await runDurableObjectAlarm(env.SVC_LOGS.get(id));
        expect(watched.records().map((r) => r.requestId)).toEqual(expected);
      },
      { timeout: 5_000, interval: 20 },
    );
    // Without `console`, the store prints nothing.
    await store.write(recordBodies([record(3000)]));
    expect(watched.lines).toHaveLength(expected.length);
  });

  it("never fails or changes a call when its writes fail, and prints its line itself", async () => {
    const watched = watchCallLines();
    const ctx = createExecutionContext();
    const response = await brokenStoreWorker.fetch(
      new Request("http://svc.test/_svc/rpc", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path: "observed:chatty", args: { word: "still works" } }),
      }),
      env,
      ctx,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ value: { word: "still works" } });
    await waitOnExecutionContext(ctx);
    // The store did not take the batch: the console still gets the call, once.
    expect(watched.records().filter((r) => r.route === "observed:chatty")).toMatchObject([
      { svc: "call", entry: "rpc", status: 200 },
    ]);
  });
});

describe("a record's time text", () => {
  it("is what Date writes, across second boundaries, reused seconds and far dates", () => {
    const boundary = Date.UTC(2026, 10, 27, 23, 59, 59, 998);
    const values = [
      ...Array.from({ length: 5 }, (_, i) => boundary + i),
      boundary,
      0,
      -1,
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      ...Array.from({ length: 200 }, (_, i) => Math.floor(Math.sin(i + 1) * 4e12) + 2e12),
    ];
    for (const ms of values) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });
});
