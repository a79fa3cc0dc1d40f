/**
 * A call's recorder ships its record's facts (an array's JSON, cheaper to
 * make on the call's path) and the log store makes the record from them: the
 * record stored, read back and printed must be the one the worker made
 * before, field for field and, in its JSON, byte for byte (key order
 * included); facts of another layout are refused like any malformed item.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CallRecord } from "../src/index.ts";
import { factsOf, recordOf } from "../src/observability/build-record.ts";
import { CallScope } from "../src/observability/call-scope.ts";
import { consoleLine } from "../src/observability/console-line.ts";
import { isoTime } from "../src/observability/iso-time.ts";
import type { LogStoreEndpoint } from "../src/observability/store/endpoint.ts";
import { watchCallLines } from "./call-lines.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A failed REST call of user `ann` that printed a line, as its scope gathered it. */
function failedCall(): CallScope {
  const scope = new CallScope();
  scope.note({ entry: "rest", route: "rest:inspect" });
  scope.note({ shardKey: "facts-shard", caller: { kind: "user", id: "ann" } });
  scope.addLine("warn", 'quote " and ünïcödé ✓', scope.started + 2);
  scope.code = "FORBIDDEN";
  scope.failure = { message: "Not yours.", stack: null };
  return scope;
}

/** The record of {@link failedCall}, written out in the documented field order. */
function expectedRecord(scope: CallScope): CallRecord {
  return {
    requestId: scope.requestId,
    time: isoTime(scope.started),
    entry: "rest",
    route: "rest:inspect",
    method: "GET",
    shardKey: "facts-shard",
    caller: { kind: "user", id: "ann" },
    status: 403,
    code: "FORBIDDEN",
    durationMs: 4,
    bytesIn: 0,
    bytesOut: 57,
    logs: [{ level: "warn", at: 2, message: 'quote " and ünïcödé ✓' }],
    logsDropped: 0,
    error: { message: "Not yours.", stack: null },
  };
}

const END = { status: 403, method: "GET", bytesIn: 0, bytesOut: 57, durationMs: 4 };

describe("a record's facts", () => {
  it("make the same record, in the same JSON bytes, in the worker and in the store", async () => {
    const { lines } = watchCallLines();
    const scope = failedCall();
    const expected = expectedRecord(scope);
    const facts = factsOf(scope, END)!;
    // The worker's own record (its console line where no store takes the call).
    expect(JSON.stringify(recordOf(facts))).toBe(JSON.stringify(expected));

    // The store's: from the facts' JSON text, as the shipper sends it.
    const store = env.SVC_LOGS.getByName("facts-partition") as unknown as LogStoreEndpoint;
    await store.write([JSON.stringify(facts)], { console: true });
    expect(lines).toEqual([consoleLine(expected)]);
    expect(JSON.stringify(await store.get(scope.requestId))).toBe(JSON.stringify(expected));
  });

  it("carry arguments, a queue message's and a cron run's facts last, as a record has them", () => {
    const scope = new CallScope();
    scope.note({
      entry: "queue",
      route: "queue:emails",
      args: { to: "ann" },
      queue: { queue: "emails", messageId: "m1", messages: 1, attempt: 1, deadLettered: false },
      cron: { job: "sweep", schedule: "0 * * * *" },
    });
    const end = { status: 200, method: null, bytesIn: 0, bytesOut: 0, durationMs: 1 };
    const record = recordOf(JSON.parse(JSON.stringify(factsOf(scope, end))));
    expect(Object.keys(record)).toEqual([
      ...Object.keys(expectedRecord(failedCall())),
      "args",
      "queue",
      "cron",
    ]);
    expect(record).toMatchObject({
      method: null,
      shardKey: null,
      caller: { kind: "anonymous" },
      args: { to: "ann" },
      queue: { queue: "emails", messageId: "m1" },
      cron: { job: "sweep" },
    });
  });

  it("are none for a call no entry point claimed", () => {
    expect(factsOf(new CallScope(), END)).toBeNull();
  });

  it("of another layout, or cut short, are refused, and nothing of their batch is stored", async () => {
    const stub = env.SVC_LOGS.getByName("facts-refused");
    const good = JSON.stringify(factsOf(failedCall(), END));
    await runInDurableObject(stub, async (object) => {
      const store = object as unknown as LogStoreEndpoint;
      const otherLayout = JSON.stringify(["svc.facts.0", ...JSON.parse(good).slice(1)]);
      await expect(store.write([good, otherLayout])).rejects.toThrow(/item 1 is not one/);
      await expect(store.write(['["svc.facts.1","req-1"]'])).rejects.toThrow(/item 0 is not one/);
    });
    expect((await (stub as unknown as LogStoreEndpoint).stats()).records).toBe(0);
  });
});
