import { describe, expect, it } from "vitest";
import { appForThisFile } from "./harness.ts";
import { openLocalD1 } from "./state-db.ts";

/**
 * Issue 14 findings 3 and 4 through real HTTP against the example app:
 * `/api/auth/*` had no brute-force or flood limit and no body cap.
 */

const app = appForThisFile();

function post(path: string, body: string | ArrayBuffer, headers: Record<string, string> = {}) {
  return fetch(`${app.url}/api/auth${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url, ...headers },
    body,
  });
}

const signUp = (email: string, name = "Tester") =>
  post("/sign-up/email", JSON.stringify({ email, password: "a long password", name }));
const signIn = (email: string, password: string) =>
  post("/sign-in/email", JSON.stringify({ email, password }));

async function usersNamedLike(prefix: string): Promise<number> {
  const db = await openLocalD1(app.stateDir);
  try {
    const row = db
      .prepare("select count(*) as n from user where substr(name, 1, ?) = ?")
      .get(prefix.length, prefix) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

describe("finding 4: body cap, field lengths and UTF-8 on /api/auth/*", () => {
  it("answers a 2 MiB sign-up with 413 problem details and stores nothing", async () => {
    const name = `huge${"x".repeat(2 * 1024 * 1024)}`;
    const response = await signUp("huge@example.com", name);
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(await usersNamedLike("huge")).toBe(0);
  });

  it("refuses a 5 MiB name without storing it", async () => {
    const response = await signUp("five@example.com", `five${"y".repeat(5 * 1024 * 1024)}`);
    expect(response.status).toBe(413);
    expect(await usersNamedLike("five")).toBe(0);
  });

  it("answers an over-long name with 400 naming the field", async () => {
    const response = await signUp("long@example.com", `long${"z".repeat(400)}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "body.name", message: "must be at most 256 characters" }],
    });
    expect(await usersNamedLike("long")).toBe(0);
  });

  it("answers invalid UTF-8 with 400", async () => {
    const bytes = new TextEncoder().encode(
      '{"email":"u@example.com","password":"a long password","name":"X"}',
    );
    const broken = new Uint8Array([...bytes.slice(0, -3), 0xc3, 0x28, 0x22, 0x7d]);
    const response = await post("/sign-up/email", broken.buffer);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("finding 3: sign-in and sign-up limits, on by default", () => {
  it("meets 429 with Retry-After within 30 wrong sign-ins for one account", async () => {
    expect((await signUp("victim@example.com")).status).toBe(200);
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 30; attempt++) {
      const response = await signIn("victim@example.com", `wrong guess ${attempt}`);
      statuses.push(response.status);
      if (response.status === 429) {
        refused = response;
        break;
      }
      expect(response.headers.get("ratelimit-limit")).toBe("10");
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused?.headers.get("ratelimit-remaining")).toBe("0");
    expect(await refused?.json()).toMatchObject({ code: "RATE_LIMITED" });
    // The right password is refused too until the window passes: guessing gains nothing.
    expect((await signIn("victim@example.com", "a long password")).status).toBe(429);
  });

  it("limits per account: another account from the same address still signs in", async () => {
    expect((await signUp("bystander@example.com")).status).toBe(200);
    expect((await signIn("bystander@example.com", "a long password")).status).toBe(200);
  });

  it("meets 429 on a sign-up flood from one address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      statuses.push((await signUp(`flood${i}@example.com`, `flood${i}`)).status);
    }
    expect(statuses).toContain(429);
    expect(statuses.slice(0, statuses.indexOf(429)).every((status) => status === 200)).toBe(true);
    expect(await usersNamedLike("flood")).toBe(statuses.indexOf(429));
  });
});
