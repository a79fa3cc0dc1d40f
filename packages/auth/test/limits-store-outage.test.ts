import { beforeAll, describe, expect, it, vi } from "vitest";
import { createAuthRateLimit, ensureMigrated, handleAuthRequest } from "../src/index.ts";
import { auth } from "./fixture/auth.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";

/**
 * The auth endpoint limits while their store is down (BROKEN_LIMITER fails
 * every decision): closed by default, open when told, and one console line
 * for the outage however many sign-ins meet it.
 */

beforeAll(() => ensureMigrated(auth));

/** A sign-in with a wrong password from `ip`, through `handleAuthRequest` with `rateLimit`. */
async function signIn(rateLimit: ReturnType<typeof createAuthRateLimit>, ip: string) {
  const request = new Request(`${TEST_ORIGIN}/api/auth/sign-in/email`, {
    method: "POST",
    body: JSON.stringify({ email: "nobody@example.com", password: "not the password" }),
    headers: { "content-type": "application/json", origin: TEST_ORIGIN, "cf-connecting-ip": ip },
  });
  const response = await handleAuthRequest(auth, request, { rateLimit });
  if (!response) throw new Error("/sign-in/email was not an auth path");
  return response;
}

/** Runs `work` and answers what it printed on console.error, line by line. */
async function errorLines(work: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, "error").mockImplementation((line: unknown) => {
    lines.push(String(line));
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return lines.filter((line) => line.includes("auth rate limiter's store is unavailable"));
}

describe("auth endpoint limits while their store is down", () => {
  it("refuse sign-in with 503 UNAVAILABLE by default, logging the outage once", async () => {
    const rateLimit = createAuthRateLimit({ store: "BROKEN_LIMITER" });
    const statuses: number[] = [];
    const codes: unknown[] = [];
    const printed = await errorLines(async () => {
      for (let attempt = 0; attempt < 4; attempt++) {
        const response = await signIn(rateLimit, "198.51.100.10");
        statuses.push(response.status);
        codes.push(((await response.json()) as { code?: unknown }).code);
      }
    });
    expect(statuses).toEqual([503, 503, 503, 503]);
    expect(codes).toEqual(["UNAVAILABLE", "UNAVAILABLE", "UNAVAILABLE", "UNAVAILABLE"]);
    expect(printed).toEqual([
      "svc/auth: the auth rate limiter's store is unavailable; auth calls are refused (503)",
    ]);
  });

  it("let sign-in through to better-auth under onStoreError: allow", async () => {
    const rateLimit = createAuthRateLimit({ store: "BROKEN_LIMITER", onStoreError: "allow" });
    let status = 0;
    const printed = await errorLines(async () => {
      status = (await signIn(rateLimit, "198.51.100.11")).status;
    });
    // better-auth's own answer to a wrong password, not the gate's 503.
    expect(status).toBe(401);
    expect(printed).toEqual([
      "svc/auth: the auth rate limiter's store is unavailable; auth calls are admitted",
    ]);
  });
});
