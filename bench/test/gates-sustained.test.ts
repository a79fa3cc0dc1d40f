import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BenchApp,
  cookieHeaderOf,
  postJson,
  seedRow,
  startBenchApp,
} from "../lib/bench-app.ts";
import { drive } from "../lib/load.ts";

/**
 * Gated REST reads served by one isolate, in 3-second windows. Before the
 * rate limiter's calls stopped awaiting promises that other requests settle
 * (`whenSettled` in @svc/ratelimit), the exact gate broke after some 130,000 of
 * them (three runs of this load: between 130,000 and 140,000): its store
 * calls stopped being answered and every answer after that was a 500
 * ("Cannot perform I/O on behalf of a different request").
 * Since 2026-12-06 the exact gate is decided in the call's shard by default,
 * where the object's calls do await one store call's promise (an object's
 * requests share its I/O); the worker's path is driven too.
 * The identity gate shares work between requests too (one revocation log
 * read for every request waiting on it, per-isolate identity cache), so it
 * is driven the same way.
 */
const REQUESTS = Number(process.env.SVC_GATES_SOAK_REQUESTS ?? 180_000);
const WINDOW_SECONDS = 3;

let app: BenchApp;
let url: string;
/** A signed-in caller's session cookie, for the identity gate. */
let cookie: string;

beforeAll(async () => {
  app = await startBenchApp();
  url = `${app.url}/_svc/rest/rows/get?shardKey=bench&id=${await seedRow(app)}`;
  const account = { email: "soak@example.com", password: "a long password", name: "Soak" };
  const { response } = await postJson(`${app.url}/api/auth/sign-up/email`, account, {
    origin: app.url,
  });
  cookie = cookieHeaderOf(response);
  // Signed in, so the identity gate resolves a user (and reads the revocation log), not an anonymous caller.
  expect(cookie).toContain("session_token=");
});

afterAll(async () => {
  await app?.stop();
});

describe.each([
  ["the exact rate-limit gate (decided in the shard)", "ratelimit"],
  ["the exact rate-limit gate decided in the worker", "ratelimit-worker"],
  ["the leased rate-limit gate", "ratelimit-leased"],
  // Identities cached per isolate, the revocation log read by one request for all that wait on it.
  ["identity from a session cookie", "identity"],
])("%s under sustained load", (_gate, variant) => {
  it(`answers ${REQUESTS} requests from one caller in one isolate, every one 2xx`, async () => {
    const plan = { connections: 16, warmupSeconds: 0, roundSeconds: WINDOW_SECONDS, rounds: 1 };
    let served = 0;
    const windows: string[] = [];
    while (served < REQUESTS) {
      const result = await drive(
        { name: variant, url, headers: { cookie, "x-bench-variant": variant } },
        plan,
        WINDOW_SECONDS,
      );
      served += result.requests.total;
      windows.push(`${result.requests.total}: ${result.non2xx + result.errors} failed`);
      // Once broken, each call waits out the store's 1 s timeout: no need to go on.
      if (result.non2xx + result.errors > 0) break;
    }
    console.log(`${variant}: ${served} requests, per window ${windows.join(", ")}`);

    expect(windows.filter((line) => !line.endsWith(": 0 failed"))).toEqual([]);
    expect(served).toBeGreaterThanOrEqual(REQUESTS);
  });
});
