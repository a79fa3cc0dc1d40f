import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const USERS = ["ann", "bob", "carol", null] as const;
type User = (typeof USERS)[number];

function headersFor(user: User, json: boolean): Record<string, string> {
  return {
    ...(user ? { "x-test-user": user } : {}),
    ...(json ? { "content-type": "application/json" } : {}),
  };
}

async function send(
  shard: string,
  user: User,
  body: string,
  transport: "rest" | "rpc",
): Promise<number> {
  const url =
    transport === "rest"
      ? `http://svc.test/_svc/rest/messages/send?shardKey=${shard}`
      : `http://svc.test/_svc/rpc?shardKey=${shard}`;
  const payload = transport === "rest" ? { body } : { path: "messages:send", args: { body } };
  const response = await exports.default.fetch(url, {
    method: "POST",
    headers: headersFor(user, true),
    body: JSON.stringify(payload),
  });
  await response.body?.cancel();
  return response.status;
}

async function listBoth(shard: string, user: User): Promise<{ rest: unknown; rpc: unknown }> {
  const rest = await exports.default.fetch(
    `http://svc.test/_svc/rest/messages/list?shardKey=${shard}`,
    { headers: headersFor(user, false) },
  );
  const rpc = await exports.default.fetch(`http://svc.test/_svc/rpc?shardKey=${shard}`, {
    method: "POST",
    headers: headersFor(user, true),
    body: JSON.stringify({ path: "messages:list", args: {} }),
  });
  return { rest: await rest.json(), rpc: ((await rpc.json()) as { value: unknown }).value };
}

describe("RLS parity between REST and RPC", () => {
  it("for random writers, transports and readers, REST answers what RPC answers and never a hidden row", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            user: fc.constantFrom(...USERS),
            transport: fc.constantFrom("rest" as const, "rpc" as const),
            body: fc.string({ maxLength: 20 }),
          }),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        fc.constantFrom(...USERS),
        async (writes, reader) => {
          const shard = `parity-${run++}`;
          const accepted: { user: User; body: string }[] = [];
          for (const write of writes) {
            const status = await send(shard, write.user, write.body, write.transport);
            expect(status).toBe(write.user === null ? 401 : 200);
            if (status === 200) accepted.push(write);
          }
          const { rest, rpc } = await listBoth(shard, reader);
          expect(rest).toEqual(rpc);
          const rows = rest as { author: string; body: string }[];
          expect(rows.every((row) => row.author === reader)).toBe(true);
          expect(rows.map((row) => row.body).sort()).toEqual(
            accepted
              .filter((write) => write.user === reader)
              .map((write) => write.body)
              .sort(),
          );
        },
      ),
      { numRuns: 25 },
    );
  });
});
