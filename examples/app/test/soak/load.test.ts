import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appForThisFile, signUpForToken } from "../node/harness.ts";

const TOTAL = Number(process.env.SVC_LOAD_CALLS ?? 20_000);
const CONCURRENCY = 64;
const SHARDS = 4;
const USERS = 4;

// The REST rate limit is a feature, not what this test measures: raise it out of the way.
const app = appForThisFile({
  vars: { REST_RATE_PER_MINUTE: "100000000", RPC_RATE_PER_MINUTE: "100000000" },
});

interface Ack {
  body: string;
  id: string;
  shard: string;
  user: number;
}

/** Runs `count` tasks with at most `limit` in flight. */
async function pool(
  count: number,
  limit: number,
  task: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

describe(`load: ${TOTAL.toLocaleString("en-US")} mixed REST/RPC calls at concurrency ${CONCURRENCY}`, () => {
  it("answers no 5xx, and every acknowledged mutation is stored exactly once", async () => {
    const tokens = await Promise.all(
      Array.from({ length: USERS }, (_, i) =>
        signUpForToken(app, `load${i}@example.com`, `Load ${i}`),
      ),
    );
    const statuses = new Map<number, number>();
    const acks: Ack[] = [];
    const started = performance.now();
    await pool(TOTAL, CONCURRENCY, async (i) => {
      const user = i % USERS;
      const shard = `room-load-${Math.floor(i / USERS) % SHARDS}`;
      const auth = { authorization: `Bearer ${tokens[user]}` };
      const body = `load-${i}`;
      let response: Response;
      switch (i % 4) {
        case 0:
          response = await fetch(`${app.url}/_svc/rpc?shardKey=${shard}`, {
            method: "POST",
            headers: { ...auth, "content-type": "application/json" },
            body: JSON.stringify({ path: "messages:send", args: { body } }),
          });
          break;
        case 1:
          response = await fetch(`${app.url}/_svc/rest/messages/send?shardKey=${shard}`, {
            method: "POST",
            headers: { ...auth, "content-type": "application/json" },
            body: JSON.stringify({ body }),
          });
          break;
        case 2:
          response = await fetch(
            `${app.url}/_svc/rest/hello/ping?name=caller${i}&shardKey=${shard}`,
            { headers: auth },
          );
          break;
        default:
          response = await fetch(`${app.url}/_svc/rpc?shardKey=${shard}`, {
            method: "POST",
            headers: { ...auth, "content-type": "application/json" },
            body: JSON.stringify({ path: "messages:list", args: { limit: 5 } }),
          });
      }
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const answer = (await response.json()) as { value?: unknown } | string;
      if (response.status === 200 && i % 4 < 2) {
        const id = i % 4 === 0 ? (answer as { value: string }).value : (answer as string);
        acks.push({ body, id, shard, user });
      }
    });
    const seconds = (performance.now() - started) / 1000;

    const stored = new Map<string, string[]>();
    for (let shard = 0; shard < SHARDS; shard++) {
      for (let user = 0; user < USERS; user++) {
        let cursor: string | null = null;
        for (;;) {
          const response = await fetch(`${app.url}/_svc/rpc?shardKey=room-load-${shard}`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${tokens[user]}`,
              "content-type": "application/json",
            },
            body: JSON.stringify({ path: "messages:page", args: { cursor, numItems: 500 } }),
          });
          const { value } = (await response.json()) as {
            value: {
              page: { _id: string; body: string }[];
              isDone: boolean;
              continueCursor: string;
            };
          };
          for (const doc of value.page)
            stored.set(doc.body, [...(stored.get(doc.body) ?? []), doc._id]);
          if (value.isDone) break;
          cursor = value.continueCursor;
        }
      }
    }
    const missing = acks.filter((ack) => !stored.get(ack.body)?.includes(ack.id));
    const duplicated = [...stored.values()].filter((ids) => ids.length > 1);
    const serverErrors = [...statuses]
      .filter(([status]) => status >= 500)
      .reduce((sum, [, n]) => sum + n, 0);

    const figures = {
      calls: TOTAL,
      concurrency: CONCURRENCY,
      seconds: Number(seconds.toFixed(1)),
      callsPerSecond: Math.round(TOTAL / seconds),
      statuses: Object.fromEntries([...statuses].sort()),
      acknowledgedMutations: acks.length,
      storedMessages: stored.size,
      missing: missing.length,
      duplicated: duplicated.length,
      serverErrors,
    };
    const out = path.resolve(import.meta.dirname, "../../../../test-results");
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, "load.json"), `${JSON.stringify(figures, null, 2)}\n`);
    console.log("load figures", figures);

    expect(serverErrors).toBe(0);
    expect(statuses.get(200)).toBe(TOTAL);
    expect(acks).toHaveLength(TOTAL / 2);
    expect(missing).toEqual([]);
    expect(duplicated).toEqual([]);
    expect(stored.size).toBe(acks.length);
  }, 600_000);
});
