import { createClient } from "@svc/client";
import { describe, expect, it } from "vitest";
import { api } from "../../svc/_generated/api.ts";
import { appForThisFile, signUpForToken } from "./harness.ts";

const app = appForThisFile();

async function poll<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("the example app's other entry points, over real HTTP", () => {
  it("GET /api/me: 401 without a session; the user and their organizations with one", async () => {
    const anonymous = await fetch(`${app.url}/api/me`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: "UNAUTHENTICATED" });

    const token = await signUpForToken(app, "orgs@example.com");
    const headers = {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      origin: app.url,
    };
    const created = await fetch(`${app.url}/api/auth/organization/create`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Acme", slug: "acme-entry" }),
    });
    expect(created.status).toBe(200);
    const me = await fetch(`${app.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    const body = (await me.json()) as { userId: string; organizations: { slug: string }[] };
    expect(body.userId).toMatch(/\S/);
    expect(body.organizations.map((org) => org.slug)).toEqual(["acme-entry"]);
  });

  it("the maintenance cron job runs on a scheduled event and records when", async () => {
    const status = () =>
      fetch(`${app.url}/_svc/rest/maintenance/status`).then(
        (r) => r.json() as Promise<{ lastSweepAt: string | null }>,
      );
    expect(await status()).toEqual({ lastSweepAt: null });
    const before = Date.now();
    const fired = await fetch(`${app.url}/__scheduled?cron=*+*+*+*+*`);
    expect(fired.status).toBe(200);
    const { lastSweepAt } = await status();
    expect(Date.parse(lastSweepAt ?? "")).toBeGreaterThanOrEqual(before - 1000);
  });

  it("sending a message enqueues a notification only its sender sees", async () => {
    const ann = createClient({
      url: app.url,
      bearer: await signUpForToken(app, "notify-ann@example.com"),
    });
    const bob = createClient({
      url: app.url,
      bearer: await signUpForToken(app, "notify-bob@example.com"),
    });
    const id = await ann.mutation(api.messages.send, { body: "queued" });
    const notes = await poll(async () => {
      const mine = await ann.query(api.messages.notifications, {});
      return mine.length > 0 ? mine : undefined;
    });
    expect(notes).toEqual([
      { messageId: id, text: "Your message in #general was delivered.", at: expect.any(Number) },
    ]);
    expect(await bob.query(api.messages.notifications, {})).toEqual([]);
  });
});
