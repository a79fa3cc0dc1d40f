import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordBodies } from "../src/index.ts";
import type { LogStoreEndpoint } from "../src/observability/store/endpoint.ts";
import { callRecord } from "./call-record.ts";
import { brokenStoreWorker } from "./worker.ts";

/**
 * The console line of a call as a person reads it in `svc dev` and test runs
 * (`SVC_LOG_FORMAT=text`, issue 46): one short line, the error's code and
 * message on failure and never its stack; JSON stays the default.
 */

/** Every `console.log` line svc prints for a call, in either format. */
function watchLines(): string[] {
  const lines: string[] = [];
  const forward = console.log;
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    const [first] = args;
    if (typeof first === "string" && /^(svc |\{"message":"svc )/.test(first)) lines.push(first);
    else forward.apply(console, args);
  });
  return lines;
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** An RPC call to the worker whose log store refuses every batch: it prints its lines itself. */
async function callPrinting(path: string, args: unknown, vars: Record<string, string>) {
  const ctx = createExecutionContext();
  const response = await brokenStoreWorker.fetch(
    new Request("http://svc.test/_svc/rpc?shardKey=console-format", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path, args }),
    }),
    { ...env, ...vars },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

describe("a call's console line", () => {
  it("is one short line in the text format, with no stack for an expected 401", async () => {
    const lines = watchLines();
    const text = { SVC_LOG_FORMAT: "text" };
    expect((await callPrinting("messages:send", { body: "hi" }, text)).status).toBe(401);
    expect((await callPrinting("observed:explode", { why: "testing" }, text)).status).toBe(500);
    expect((await callPrinting("observed:quiet", { note: "ok" }, text)).status).toBe(200);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^svc rpc POST messages:send 401 UNAUTHENTICATED \d+ms: Sign in to send messages\.$/,
    );
    expect(lines[1]).toMatch(/^svc rpc POST observed:explode 500 INTERNAL \d+ms: .*kaboom/);
    expect(lines[2]).toMatch(/^svc rpc POST observed:quiet 200 \d+ms$/);
    for (const line of lines) expect(line).not.toMatch(/\n|\bat .*:\d+:\d+/);
  });

  it("stays the record's JSON by default and for any other value", async () => {
    const lines = watchLines();
    await callPrinting("messages:send", { body: "hi" }, {});
    await callPrinting("messages:send", { body: "hi" }, { SVC_LOG_FORMAT: "pretty" });
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(JSON.parse(line)).toMatchObject({
        svc: "call",
        route: "messages:send",
        status: 401,
        code: "UNAUTHENTICATED",
      });
    }
  });

  it("is printed by the log store in the format the worker asked for", async () => {
    const lines = watchLines();
    const store = env.SVC_LOGS.getByName("console-format") as unknown as LogStoreEndpoint;
    const record = callRecord({
      requestId: "req-text-1",
      entry: "rest",
      method: "GET",
      route: "rows:get",
      status: 404,
      code: "NOT_FOUND",
      durationMs: 3.4,
      error: { message: "No such row.", stack: "Error: No such row.\n    at get (rows.ts:1:1)" },
    });
    await store.write(recordBodies([record]), { console: true, format: "text" });
    expect(lines).toEqual(["svc rest GET rows:get 404 NOT_FOUND 3ms: No such row."]);
  });
});
