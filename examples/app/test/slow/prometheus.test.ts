/**
 * A real Prometheus (Debian's `prometheus` package) scrapes the example app's
 * `/_svc/admin/metrics` under `wrangler dev` and its query API answers the
 * calls this test made (issue 29). In the slow suite: Prometheus and the app
 * each take seconds to start.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appForThisFile } from "../node/harness.ts";
import { type RunningPrometheus, startPrometheus } from "./prometheus-server.ts";

const ADMIN_TOKEN = "prometheus-tests-admin-token-0123456789";
const app = appForThisFile({ vars: { SVC_ADMIN_TOKEN: ADMIN_TOKEN } });
let prometheus: RunningPrometheus;

beforeAll(async () => {
  prometheus = await startPrometheus(app.url, "/_svc/admin/metrics", ADMIN_TOKEN);
}, 60_000);

afterAll(async () => {
  await prometheus?.stop();
});

/** Polls a Prometheus query until it answers `expected` (scrapes come every second). */
async function counted(query: string, expected: number): Promise<number | undefined> {
  const deadline = Date.now() + 30_000;
  let value: number | undefined;
  while (Date.now() < deadline) {
    value = await prometheus.value(query);
    if (value === expected) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return value;
}

describe("the metrics endpoint scraped by a real Prometheus", () => {
  it("counts the calls, and the failures by code, that the test made", async () => {
    const names = ["ann", "bob", "cy", "dee"];
    for (const name of names) {
      const response = await fetch(`${app.url}/_svc/rest/hello/ping?name=${name}`);
      expect(response.status).toBe(200);
    }
    const refused = await fetch(`${app.url}/_svc/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "messages:send", args: { body: "anonymous" } }),
    });
    expect(refused.status).toBe(401);

    expect(await counted('sum(svc_calls_total{function="hello:ping",entry="rest"})', 4)).toBe(4);
    expect(
      await counted('sum(svc_calls_total{function="messages:send",code="UNAUTHENTICATED"})', 1),
    ).toBe(1);
    // The scrape itself is authenticated: Prometheus reports its target up.
    expect(await prometheus.value('up{job="svc"}')).toBe(1);
  });
});
