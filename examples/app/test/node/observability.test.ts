/**
 * Call records of the example app under `wrangler dev`, over real HTTP
 * (issue 29): a REST call, an RPC call, a failing mutation, a cron run and a
 * queue message each show in `GET /_svc/admin/logs` with their fields; the
 * OTLP drain's requests decode with the official protobuf definitions, and a
 * refused delivery comes again without duplicates; `svc logs` prints them.
 * (A real Prometheus scraping the metrics: ../slow/prometheus.test.ts.)
 */
import { spawn } from "node:child_process";
import path from "node:path";
import type { CallRecord } from "@svc/server";
import { otlpDrain } from "@svc/server/otlp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, signUpForToken, startApp } from "./harness.ts";
import { attribute, type ReceivedExport, startOtlpReceiver } from "./otlp-receiver.ts";

const ADMIN_TOKEN = "observability-tests-admin-token-0123456789";
const SVC_BIN = path.resolve(import.meta.dirname, "../../../../packages/cli/bin/svc.js");

/**
 * Runs `svc logs …` against the app; `until` ends a `--follow` once its
 * output matches; `onFollowing` runs when it says it is following.
 */
function svcLogs(
  args: string[],
  until?: RegExp,
  onFollowing?: () => void,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, "logs", "--url", app.url, ...args], {
      env: { ...process.env, SVC_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`svc logs did not finish: ${out}${err}`));
    }, 20_000);
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (until?.test(out)) child.kill();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      if (err.includes("following new calls")) onFollowing?.();
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out: out + err });
    });
  });
}
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

let app: RunningApp;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
/** Everything `wrangler dev` printed: the workers' console, as Workers Logs would get it. */
let output = "";

beforeAll(async () => {
  // The drain's first delivery is refused (503): the store must send those records again.
  receiver = await startOtlpReceiver([503]);
  app = await startApp({
    vars: { SVC_ADMIN_TOKEN: ADMIN_TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    onOutput: (chunk) => {
      output += chunk;
    },
  });
}, 120_000);

afterAll(async () => {
  await Promise.all([app?.stop(), receiver?.stop()]);
});

async function records(query = ""): Promise<CallRecord[]> {
  const response = await fetch(`${app.url}/_svc/admin/logs?limit=200${query}`, { headers: admin });
  expect(response.status).toBe(200);
  return ((await response.json()) as { records: CallRecord[] }).records;
}

async function poll<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const recordWhere = (match: (record: CallRecord) => boolean, what: string, query = "") =>
  poll(async () => (await records(query)).find(match), what);

describe("call records of the example app", () => {
  let token: string;
  const pings = ["ann", "bob", "cy"];

  beforeAll(async () => {
    token = await signUpForToken(app, "observed@example.com");
  });

  it("record a REST call and an RPC call with their fields", async () => {
    for (const name of pings) {
      const response = await fetch(`${app.url}/_svc/rest/hello/ping?name=${name}`);
      expect(response.status).toBe(200);
    }
    const rpc = await fetch(`${app.url}/_svc/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ path: "hello:ping", args: { name: "rpc" } }),
    });
    expect(rpc.status).toBe(200);
    const rest = await recordWhere((r) => r.entry === "rest" && r.route === "hello:ping", "REST");
    expect(rest).toMatchObject({
      method: "GET",
      shardKey: "default",
      caller: { kind: "anonymous" },
      status: 200,
      code: null,
      error: null,
      bytesIn: 0,
    });
    expect(rest.bytesOut).toBeGreaterThan(0);
    expect(rest.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(rest.durationMs).toBeGreaterThanOrEqual(0);
    const viaRpc = await recordWhere((r) => r.entry === "rpc" && r.route === "hello:ping", "RPC");
    expect(viaRpc).toMatchObject({ method: "POST", status: 200, caller: { kind: "user" } });
    expect(viaRpc.bytesIn).toBeGreaterThan(0);

    // One JSON line per call on the console (printed by the log store), the stored record's fields.
    const linesOf = (requestId: string) =>
      output
        .split("\n")
        .filter((line) => line.includes('"svc":"call"') && line.includes(requestId));
    await poll(async () => (linesOf(viaRpc.requestId).length > 0 ? true : undefined), "RPC line");
    for (const stored of [rest, viaRpc]) {
      const lines = linesOf(stored.requestId);
      expect(lines).toHaveLength(1);
      const printed = JSON.parse(lines[0]!.slice(lines[0]!.indexOf("{"))) as Record<
        string,
        unknown
      >;
      expect(printed).toEqual({
        message: `svc ${stored.entry} hello:ping 200 ${Math.round(stored.durationMs)}ms`,
        svc: "call",
        ...stored,
      });
    }
    expect(output).not.toContain(`Bearer ${token}`);
  });

  it("record a failing mutation with its stack, which the client never sees", async () => {
    const response = await fetch(`${app.url}/_svc/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "messages:send", args: { body: "anonymous" } }),
    });
    expect(response.status).toBe(401);
    const answer = await response.text();
    expect(answer).not.toMatch(/worker\.js|\bat \S+:\d+|handler/);
    const failed = await recordWhere(
      (r) => r.route === "messages:send" && r.status === 401,
      "failure",
    );
    expect(failed).toMatchObject({ entry: "rpc", code: "UNAUTHENTICATED" });
    expect(failed.error?.message).toBe("Sign in to send messages.");
    // The bundle's stack (wrangler dev runs the bundled worker): the handler threw.
    expect(failed.error?.stack).toMatch(
      /^SvcError: Sign in to send messages\.\n\s+at Object\.handler \(\S+:\d+:\d+\)/,
    );
  });

  it("record a cron run and a queue message as the service", async () => {
    expect((await fetch(`${app.url}/__scheduled?cron=*+*+*+*+*`)).status).toBe(200);
    const cron = await recordWhere((r) => r.entry === "cron", "cron run", "&entry=cron");
    expect(cron).toMatchObject({
      route: "maintenance:sweep",
      status: 200,
      caller: { kind: "service", id: "cron:maintenance:sweep" },
      cron: { job: "maintenance:sweep", schedule: "* * * * *" },
    });
    const sent = await fetch(`${app.url}/_svc/rest/messages/send`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ body: "queued for the logs" }),
    });
    expect(sent.status).toBe(200);
    const queued = await recordWhere((r) => r.entry === "queue", "queue message", "&entry=queue");
    expect(queued).toMatchObject({
      route: "notifications:record",
      status: 200,
      caller: { kind: "service", id: "queue:svc-example-notifications" },
      queue: { queue: "svc-example-notifications", attempt: 1, deadLettered: false },
    });
    expect(queued.queue?.messageId).toMatch(/\S/);
  });

  it("hold no cookie, authorization value or argument of a procedure that did not opt in", async () => {
    const body = JSON.stringify({ path: "hello:ping", args: { name: "argument-secret-0815" } });
    const response = await fetch(`${app.url}/_svc/rpc`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
        cookie: "better-auth.session_token=cookie-secret-4711",
      },
      body,
    });
    expect(await response.json()).toMatchObject({ value: "pong argument-secret-0815" });
    // Its record (the only hello:ping RPC of this body's size) has no arguments.
    const sent = await recordWhere(
      (r) => r.entry === "rpc" && r.bytesIn === body.length,
      "the call with a cookie",
      "&function=hello:ping",
    );
    expect(sent).toMatchObject({ status: 200, caller: { kind: "user" } });
    expect(sent).not.toHaveProperty("args");
    const all = JSON.stringify(await records());
    for (const secret of [token, ADMIN_TOKEN, "cookie-secret-4711", "argument-secret-0815"]) {
      expect(all).not.toContain(secret);
    }
  });

  it("reach the OTLP drain as valid OTLP, again after a refused delivery, never twice once taken", async () => {
    const calls = (sent: readonly ReceivedExport[]) =>
      sent.flatMap((exported) =>
        exported.request.resourceLogs.flatMap((resource) =>
          resource.scopeLogs.flatMap((scope) => scope.logRecords),
        ),
      );
    const idOf = (log: { attributes: Parameters<typeof attribute>[0] }) =>
      attribute(log.attributes, "svc.request_id") ?? "";
    const taken = () => receiver.received.filter((exported) => exported.status === 200);
    await poll(async () => {
      const refused = receiver.received.find((exported) => exported.status === 503);
      if (refused === undefined) return undefined;
      const delivered = new Set(calls(taken()).map(idOf));
      return calls([refused]).every((log) => delivered.has(idOf(log))) ? true : undefined;
    }, "the refused batch to be delivered again");
    const first = receiver.received[0]!;
    expect(first.status).toBe(503);
    expect(first.contentType).toBe("application/x-protobuf");
    const [resource] = first.request.resourceLogs;
    expect(attribute(resource!.resource.attributes, "service.name")).toBe("svc-example-app");
    expect(resource!.scopeLogs[0]!.scope.name).toBe("svc");
    const ping = calls(taken()).find(
      (log) => attribute(log.attributes, "http.route") === "hello:ping",
    );
    expect(ping).toBeDefined();
    expect(ping!.eventName).toBe("svc.call");
    expect(ping!.severityText).toBe("INFO");
    expect(attribute(ping!.attributes, "http.response.status_code")).toBe("200");
    expect(attribute(ping!.attributes, "svc.entry")).toMatch(/^(rest|rpc)$/);
    expect(BigInt(ping!.timeUnixNano)).toBeGreaterThan(0n);
    const ids = calls(taken()).map(idOf);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("are printed by svc logs, and followed with --follow", async () => {
    const listed = await svcLogs(["--function", "hello:ping", "--entry", "rest"]);
    expect(listed.code).toBe(0);
    const lines = listed.out.trim().split("\n");
    expect(lines).toHaveLength(pings.length);
    for (const line of lines)
      expect(line).toMatch(/^\S+Z 200 rest hello:ping \d+ms anonymous default$/);
    const failed = await svcLogs(["--status", "UNAUTHENTICATED", "--verbose"]);
    expect(failed.out).toContain("401 UNAUTHENTICATED rpc messages:send");
    expect(failed.out).toContain("    Sign in to send messages.");
    // Once the tail is listening (it starts at the newest record), a new call shows up.
    let listening: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      listening = resolve;
    });
    const following = svcLogs(
      ["--follow", "--limit", "0", "--function", "hello:ping", "--entry", "rpc"],
      /rpc hello:ping/,
      () => listening(),
    );
    await started;
    await fetch(`${app.url}/_svc/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ path: "hello:ping", args: { name: "followed" } }),
    });
    expect((await following).out).toMatch(/^\S+Z 200 rpc hello:ping \d+ms user:\S+ default$/m);
  });

  it("encode OTLP JSON that decodes with the same definitions", async () => {
    const drain = otlpDrain({ endpoint: receiver.url, encoding: "json", name: "json-check" });
    const [sample] = await records("&function=hello:ping");
    const before = receiver.received.length;
    await drain.send([sample!]);
    const exported = receiver.received[before]!;
    expect(exported.contentType).toBe("application/json");
    const log = exported.request.resourceLogs[0]!.scopeLogs[0]!.logRecords[0]!;
    expect(attribute(log.attributes, "svc.request_id")).toBe(sample!.requestId);
    expect(log.body.stringValue).toContain("hello:ping");
  });
});
