import { type ConnectionState, createClient } from "@svc/client";
import { describe, expect, it } from "vitest";
import { api } from "../../svc/_generated/api.ts";
import { appForThisFile, signUpForToken } from "./harness.ts";

// Sockets re-resolve their caller every 2 s here (60 s by default).
const app = appForThisFile({ vars: { SUBSCRIPTION_REAUTH_SECONDS: "2" } });

/** Collects a subscription's values; `until` waits for one that matches. */
function watcher<T>() {
  const values: T[] = [];
  const waiting: { match: (value: T) => boolean; resolve: (value: T) => void }[] = [];
  return {
    values,
    push(value: T) {
      values.push(value);
      for (const waiter of [...waiting]) {
        if (waiter.match(value)) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve(value);
        }
      }
    },
    until(match: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
      const found = values.find(match);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching value in ${JSON.stringify(values)}`)),
          timeoutMs,
        );
        waiting.push({
          match,
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value);
          },
        });
      });
    },
  };
}

type Listed = { body: string }[];
const texts = (list: Listed) => list.map((message) => message.body);

describe("live queries from the typed client over real WebSockets", () => {
  it("push the first value, then each change, under each subscriber's RLS", async () => {
    const ann = createClient({
      url: app.url,
      bearer: await signUpForToken(app, "live-ann@example.com"),
    });
    const bob = createClient({
      url: app.url,
      bearer: await signUpForToken(app, "live-bob@example.com"),
    });
    const annSees = watcher<Listed>();
    const bobSees = watcher<Listed>();
    const stopAnn = ann.subscribe(api.messages.list, { channel: "live" }, annSees.push);
    const stopBob = bob.subscribe(api.messages.list, { channel: "live" }, bobSees.push);
    await annSees.until((list) => list.length === 0);
    await bobSees.until((list) => list.length === 0);
    await ann.mutation(api.messages.send, { body: "ann live", channel: "live" });
    await bob.mutation(api.messages.send, { body: "bob live", channel: "live" });
    expect(texts(await annSees.until((list) => list.length === 1))).toEqual(["ann live"]);
    expect(texts(await bobSees.until((list) => list.length === 1))).toEqual(["bob live"]);
    expect(JSON.stringify(bobSees.values)).not.toContain("ann live");
    expect(JSON.stringify(annSees.values)).not.toContain("bob live");
    stopAnn();
    stopBob();
  });

  it("after sign-out the socket loses its authority within the bound, reconnects and sees as anonymous", async () => {
    const token = await signUpForToken(app, "live-carol@example.com");
    const states: ConnectionState[] = [];
    const carol = createClient({
      url: app.url,
      bearer: token,
      onConnectionStateChange: (state) => states.push(state),
    });
    await carol.mutation(api.messages.send, { body: "carol's", channel: "revoke" });
    const sees = watcher<Listed>();
    const stop = carol.subscribe(api.messages.list, { channel: "revoke" }, sees.push);
    await sees.until((list) => list.length === 1);
    const signOut = await fetch(`${app.url}/api/auth/sign-out`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        origin: app.url,
        "content-type": "application/json",
      },
      body: "{}",
    });
    expect(signOut.status).toBe(200);
    const signedOutAt = Date.now();
    // The revoked token now resolves to nobody: RLS hides carol's row.
    await sees.until((list) => list.length === 0, 10_000);
    expect(Date.now() - signedOutAt).toBeLessThan(2000 + 3000);
    expect(states).toEqual(expect.arrayContaining(["connecting", "open", "reconnecting"]));
    stop();
  });

  it("refuses a mutation path as it refuses an unknown one", async () => {
    const client = createClient({ url: app.url });
    const error = await new Promise((resolve) => {
      client.subscribe(
        { path: "messages:send", kind: "query", visibility: "public" } as typeof api.messages.list,
        { channel: "x" },
        () => {},
        { onError: resolve },
      );
    });
    expect(error).toMatchObject({ code: "NOT_FOUND", status: 404 });
  });
});
