import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineTable, rule, v } from "../src/index.ts";

const USERS = ["ann", "bob", "carol"] as const;
const TEAMS = ["red", "blue", "green"] as const;

type Doc = { owner: string; team?: string; n?: number; flag?: boolean };
type Caller = { user?: string; teams?: string[]; level?: number };

function headersOf(caller: Caller, json: boolean): Record<string, string> {
  return {
    ...(caller.user ? { "x-test-user": caller.user } : {}),
    ...(caller.user && caller.teams ? { "x-test-teams": caller.teams.join(",") } : {}),
    ...(caller.user && caller.level !== undefined ? { "x-test-level": String(caller.level) } : {}),
    ...(json ? { "content-type": "application/json" } : {}),
  };
}

async function rpc(shard: string, caller: Caller, path: string, args: unknown): Promise<unknown> {
  const response = await exports.default.fetch(`http://svc.test/_svc/rpc?shardKey=${shard}`, {
    method: "POST",
    headers: headersOf(caller, true),
    body: JSON.stringify({ path, args }),
  });
  const body = (await response.json()) as { value?: unknown };
  if (response.status !== 200)
    throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
  return body.value;
}

async function rest(shard: string, caller: Caller, name: string, query: string): Promise<unknown> {
  const response = await exports.default.fetch(
    `http://svc.test/_svc/rest/rls/${name}?shardKey=${shard}${query}`,
    { headers: headersOf(caller, false) },
  );
  if (response.status !== 200) throw new Error(`${name}: ${response.status}`);
  return response.json();
}

const docArbitrary: fc.Arbitrary<Doc> = fc.record(
  {
    owner: fc.constantFrom(...USERS),
    team: fc.constantFrom(...TEAMS),
    n: fc.integer({ min: 0, max: 3 }),
    flag: fc.boolean(),
  },
  { requiredKeys: ["owner"] },
);
const callerArbitrary: fc.Arbitrary<Caller> = fc.oneof(
  fc.constant({}),
  fc.record(
    {
      user: fc.constantFrom(...USERS, "dave"),
      teams: fc.subarray([...TEAMS]),
      level: fc.integer({ min: 0, max: 3 }),
    },
    { requiredKeys: ["user"] },
  ),
);
const queryArbitrary = fc.record({
  team: fc.option(fc.constantFrom(...TEAMS), { nil: undefined }),
  order: fc.constantFrom("asc" as const, "desc" as const),
  limit: fc.integer({ min: 1, max: 12 }),
});

describe("declarative RLS (compiled into SQL) against the same policy as a function", () => {
  it("returns exactly the rows the function form returns, over RPC and REST, for random rows and callers", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(docArbitrary, { minLength: 0, maxLength: 30 }),
        fc.array(fc.tuple(callerArbitrary, queryArbitrary), { minLength: 1, maxLength: 4 }),
        async (docs, reads) => {
          const shard = `declarative-${run++}`;
          await rpc(shard, { user: "seeder" }, "rls:seed", { docs });
          for (const [caller, query] of reads) {
            const args = Object.fromEntries(
              Object.entries(query).filter(([, v]) => v !== undefined),
            );
            const fromFunction = await rpc(shard, caller, "rls:listFn", args);
            expect(await rpc(shard, caller, "rls:listRule", args)).toEqual(fromFunction);
            const search = Object.entries(args)
              .map(([key, value]) => `&${key}=${encodeURIComponent(String(value))}`)
              .join("");
            expect(await rest(shard, caller, "listRule", search)).toEqual(fromFunction);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it("checks writes with the same rule: a user inserts only as themselves", async () => {
    const insert = (caller: Caller, owner: string) =>
      exports.default.fetch("http://svc.test/_svc/rpc?shardKey=declarative-write", {
        method: "POST",
        headers: headersOf(caller, true),
        body: JSON.stringify({ path: "rls:insertRule", args: { owner } }),
      });
    expect((await insert({ user: "ann" }, "ann")).status).toBe(200);
    expect((await insert({ user: "ann" }, "bob")).status).toBe(403);
    expect((await insert({}, "ann")).status).toBe(403);
    expect(await rpc("declarative-write", { user: "ann" }, "rls:listRule", {})).toEqual([
      { owner: "ann" },
    ]);
  });

  it("refuses a rule over a field the table does not have, when the table is declared", () => {
    expect(() =>
      defineTable({ author: v.string() }).policy({ read: rule.eq("autor", rule.userId) }),
    ).toThrow(/names "autor", which is not a field/);
  });
});
