import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createClient, type SvcClient } from "@svc/client";
import { describe, expect, it } from "vitest";
import { api } from "../../svc/_generated/api.ts";
import { appForThisFile, signUpForToken } from "../node/harness.ts";

const SUBSCRIBERS = Number(process.env.SVC_FANOUT_SUBSCRIBERS ?? 1000);
const MUTATIONS = Number(process.env.SVC_FANOUT_MUTATIONS ?? 500);
const USERS = 10;
const SHARD = "room-fan-out";
/**
 * How long the subscribers may take to get their first value, and the last
 * mutation to reach them all. Bounded so that a stall fails saying how many
 * got there, not at the suite's timeout saying nothing: beside three busy
 * loops on 2 cores the whole test took under 2 minutes.
 */
const SUBSCRIBE_WITHIN_MS = 180_000;
const CONVERGE_WITHIN_MS = 240_000;

/** Settles after `ms`; the timer does not hold the process open. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

// One address and ten users open every socket: lift the example's socket and RPC limits.
const app = appForThisFile({
  vars: { SOCKETS_PER_IP: "100000", SOCKETS_PER_USER: "10000", RPC_RATE_PER_MINUTE: "1000000" },
});

type Listed = { body: string; author: string }[];

describe(`fan-out: ${SUBSCRIBERS} subscribers on one shard, ${MUTATIONS} mutations`, () => {
  it("every subscriber ends on the final result, with no row of another user", async () => {
    const tokens = await Promise.all(
      Array.from({ length: USERS }, (_, i) =>
        signUpForToken(app, `fan${i}@example.com`, `Fan ${i}`),
      ),
    );
    const writers = tokens.map((bearer) => createClient({ url: app.url, bearer, shardKey: SHARD }));
    // One client (so one socket) per subscriber, each watching its user's messages.
    const latest: (Listed | undefined)[] = Array.from({ length: SUBSCRIBERS }, () => undefined);
    const firstValues: Promise<void>[] = [];
    let subscribed = 0;
    const stops: (() => void)[] = [];
    const errors: unknown[] = [];
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const client: SvcClient = createClient({
        url: app.url,
        bearer: tokens[i % USERS],
        shardKey: SHARD,
      });
      firstValues.push(
        new Promise((resolve) => {
          stops.push(
            client.subscribe(
              api.messages.list,
              { channel: "fan", limit: 200 },
              (value) => {
                if (latest[i] === undefined) subscribed++;
                latest[i] = value;
                resolve();
              },
              {
                onError: (error) => {
                  errors.push(error);
                  resolve();
                },
              },
            ),
          );
        }),
      );
    }
    const subscribedAt = performance.now();
    await Promise.race([Promise.all(firstValues), sleep(SUBSCRIBE_WITHIN_MS)]);
    const subscribeMs = performance.now() - subscribedAt;
    if (subscribed < SUBSCRIBERS) {
      for (const stop of stops) stop();
      throw new Error(
        `${subscribed} of ${SUBSCRIBERS} subscribers had a first value after ${Math.round(subscribeMs)} ms (${errors.length} subscription errors: ${errors.slice(0, 3).map(String).join("; ")})`,
      );
    }

    const statuses = new Map<number, number>();
    const started = performance.now();
    for (let m = 0; m < MUTATIONS; m++) {
      const user = m % USERS;
      try {
        await writers[user]!.mutation(api.messages.send, {
          body: `u${user}-m${m}`,
          channel: "fan",
        });
        statuses.set(200, (statuses.get(200) ?? 0) + 1);
      } catch (error) {
        const status = (error as { status?: number }).status ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }
    const mutateMs = performance.now() - started;

    // The final result per user, as RPC answers it.
    const finals = await Promise.all(
      writers.map((writer) => writer.query(api.messages.list, { channel: "fan", limit: 200 })),
    );
    const deadline = Date.now() + CONVERGE_WITHIN_MS;
    const converged = () =>
      latest.every((value, i) => JSON.stringify(value) === JSON.stringify(finals[i % USERS]));
    while (!converged() && Date.now() < deadline) await sleep(250);
    const convergeMs = performance.now() - started - mutateMs;
    let leaked = 0;
    latest.forEach((value, i) => {
      for (const row of value ?? []) if (!row.body.startsWith(`u${i % USERS}-`)) leaked++;
    });
    for (const stop of stops) stop();

    const figures = {
      subscribers: SUBSCRIBERS,
      mutations: MUTATIONS,
      users: USERS,
      statuses: Object.fromEntries(statuses),
      subscribeAllMs: Math.round(subscribeMs),
      mutateAllMs: Math.round(mutateMs),
      convergeAfterLastMs: Math.round(convergeMs),
      converged: latest.filter(
        (value, i) => JSON.stringify(value) === JSON.stringify(finals[i % USERS]),
      ).length,
      leakedRows: leaked,
      subscriptionErrors: errors.length,
    };
    const out = path.resolve(import.meta.dirname, "../../../../test-results/fan-out.json");
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(figures, null, 2)}\n`);
    console.log(JSON.stringify(figures));
    expect(errors).toEqual([]);
    expect(statuses.get(200)).toBe(MUTATIONS);
    expect(figures.converged).toBe(SUBSCRIBERS);
    expect(leaked).toBe(0);
  });
});
