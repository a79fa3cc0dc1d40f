import { describe, expect, it } from "vitest";
import type { CallRecord } from "../../ui/api/log-types.ts";
import { readRecordEvents } from "../../ui/api/logs.ts";
import {
  callerLabel,
  formatDuration,
  sparklinePoints,
  statusLabel,
  statusTone,
} from "../../ui/lib/log-format.ts";
import { hrefOf, NO_LOG_FILTERS, parseRoute } from "../../ui/lib/routes.ts";

describe("call record formatting", () => {
  it.each([
    [null, "—"],
    [0.42, "0.4 ms"],
    [12.4, "12 ms"],
    [1250, "1.25 s"],
    [12_500, "12.5 s"],
    [180_000, "3 min"],
  ])("formats %s ms as %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("names callers and statuses", () => {
    expect(callerLabel({ kind: "anonymous" })).toBe("anonymous");
    expect(callerLabel({ kind: "user", id: "u1" })).toBe("u1 (user)");
    expect(callerLabel({ kind: "service", id: "cron:sweep" })).toBe("cron:sweep (service)");
    expect(callerLabel({ kind: "apiKey", id: "k1", userId: "u1" })).toBe("key k1 of u1");
    expect(statusLabel({ status: 403, code: "FORBIDDEN" })).toBe("403 FORBIDDEN");
    expect(statusLabel({ status: 200, code: null })).toBe("200");
    expect([200, 404, 503].map(statusTone)).toEqual(["ok", "warn", "danger"]);
  });

  it("draws a sparkline from the bottom up, with a margin", () => {
    expect(sparklinePoints([0, 2, 1], 100, 20)).toBe("0,19 50,1 100,10");
    expect(sparklinePoints([0, 0], 100, 20)).toBe("0,19 100,19");
    expect(sparklinePoints([], 100, 20)).toBe("");
  });
});

describe("logs routes", () => {
  it("round-trip the calls view's filters and record, and the other views", () => {
    const filters = { ...NO_LOG_FILTERS, function: "messages:send", status: "5xx", since: "1h" };
    const href = hrefOf({ page: "logs", view: "calls", filters, record: "r-1" });
    expect(href).toBe(
      "/_svc/dashboard/logs?function=messages%3Asend&status=5xx&since=1h&record=r-1",
    );
    const url = new URL(href, "http://x");
    expect(parseRoute(url.pathname, url.search)).toEqual({
      page: "logs",
      view: "calls",
      filters,
      record: "r-1",
    });
    expect(parseRoute("/_svc/dashboard/logs/jobs", "")).toMatchObject({
      page: "logs",
      view: "jobs",
    });
    expect(parseRoute("/_svc/dashboard/functions", "?path=a%3Ab&window=7d")).toEqual({
      page: "functions",
      path: "a:b",
      shard: "",
      window: "7d",
    });
    expect(parseRoute("/_svc/dashboard/functions", "?window=2y")).not.toHaveProperty("window");
    expect(hrefOf({ page: "functions", path: null, window: "24h" })).toBe(
      "/_svc/dashboard/functions?window=24h",
    );
  });
});

describe("the live tail's event reader", () => {
  it("hands over each record event, across chunk boundaries, and skips comments", async () => {
    const record = { requestId: "r-1", route: "a:b" } as CallRecord;
    const text = `: svc log tail\n\nevent: record\nid: abc\ndata: ${JSON.stringify(record)}\n\n: keep-alive\n\n`;
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 7) controller.enqueue(bytes.slice(at, at + 7));
        controller.close();
      },
    });
    const seen: string[] = [];
    await readRecordEvents(
      body,
      (next) => seen.push(next.requestId),
      () => seen.push("open"),
    );
    expect(seen).toEqual(["open", "r-1"]);
  });
});
