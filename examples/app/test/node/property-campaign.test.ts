import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../../svc/_generated/api.ts";
import openApi from "../../svc/_generated/openapi.json" with { type: "json" };
import { appForThisFile } from "./harness.ts";

/**
 * Property campaign (issue 14): arbitrary arguments thrown at every exposed
 * procedure of the example app, over real HTTP, RPC and REST, anonymous and
 * signed in, in allowed and refused shards. Asserts: no 5xx, ever; and a
 * refused mutation changes nothing (the caller's messages and the public
 * notices compared before and after).
 */

const RUNS = Number(process.env.SVC_CAMPAIGN_RUNS ?? 600);
// The REST limit is the subject of its own tests; here it would only hide cases.
const app = appForThisFile({
  vars: { REST_RATE_PER_MINUTE: "1000000", RPC_RATE_PER_MINUTE: "1000000" },
});
let bearer: string;

/** Every public procedure of the app: `[path, kind]`, from the generated references. */
function publicProcedures(): [string, string][] {
  const out: [string, string][] = [];
  for (const namespace of Object.values(api)) {
    for (const reference of Object.values(namespace)) {
      const { path: procedurePath, kind } = reference as unknown as { path: string; kind: string };
      out.push([procedurePath, kind]);
    }
  }
  return out;
}

/** Every REST operation of the generated OpenAPI document: `[method, path]`. */
const restOperations: [string, string][] = Object.entries(openApi.paths).flatMap(
  ([routePath, operations]) =>
    Object.keys(operations).map((method) => [method.toUpperCase(), routePath] as [string, string]),
);

const hostile: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    fc.string({ unit: "binary" }),
    fc.constantFrom("日本", "🎌", "\ud800", "", "general", "123", "null", "a".repeat(5000)),
    fc.double(),
    fc.integer(),
    fc.constantFrom(1.5, -1, 0, 2 ** 53, 1e308, -0),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie("value"), { maxKeys: 3 }),
  ),
})).value;

const KEYS = ["body", "channel", "limit", "cursor", "numItems", "id", "name", "text", "x"];
const args = fc.oneof(
  { arbitrary: fc.dictionary(fc.constantFrom(...KEYS), hostile, { maxKeys: 4 }), weight: 4 },
  { arbitrary: hostile, weight: 1 },
);

const campaignCase = fc.record({
  transport: fc.constantFrom("rpc", "rest"),
  procedure: fc.constantFrom(...publicProcedures()),
  rest: fc.constantFrom(...restOperations),
  args,
  signedIn: fc.boolean(),
  shardKey: fc.oneof(
    { arbitrary: fc.constantFrom(undefined, "default", "room-campaign"), weight: 4 },
    { arbitrary: fc.constantFrom("tenant-9", "日本", "", "user-x"), weight: 1 },
  ),
});

const SNAPSHOT_SHARDS = ["default", "room-campaign"];
const SNAPSHOT_CHANNELS = ["general", "日本"];

async function rpc(pathName: string, body: unknown, query = "", auth = true): Promise<Response> {
  return fetch(`${app.url}/_svc/rpc${query}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(auth ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify({ path: pathName, args: body }),
  });
}

/** What a refused mutation must not change. */
async function snapshot(): Promise<string> {
  const parts: unknown[] = [];
  for (const shard of SNAPSHOT_SHARDS) {
    const query = `?shardKey=${shard}`;
    for (const channel of SNAPSHOT_CHANNELS) {
      parts.push(await (await rpc("messages:list", { channel, limit: 200 }, query)).json());
    }
    parts.push(await (await rpc("messages:notices", {}, query)).json());
  }
  return JSON.stringify(parts);
}

function restRequest(method: string, routePath: string, values: unknown, headers: HeadersInit) {
  const url = new URL(`${app.url}${routePath}`);
  if (method === "GET") {
    if (typeof values === "object" && values !== null && !Array.isArray(values)) {
      for (const [key, value] of Object.entries(values)) {
        url.searchParams.append(key, typeof value === "string" ? value : JSON.stringify(value));
      }
    }
    return { url, init: { method, headers } };
  }
  return {
    url,
    init: {
      method,
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(values),
    },
  };
}

beforeAll(async () => {
  const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify({ email: "fuzz@example.com", password: "a long password", name: "F" }),
  });
  bearer = signUp.headers.get("set-auth-token") ?? "";
  for (const shard of SNAPSHOT_SHARDS) {
    await rpc("messages:send", { body: "seed", channel: "general" }, `?shardKey=${shard}`);
  }
}, 90_000);

describe("property campaign against the example app", () => {
  it(`answers ${RUNS} arbitrary calls without a 5xx, and refusals change nothing`, async () => {
    const statuses = new Map<number, number>();
    const byTransport = { rpc: 0, rest: 0 };
    let refusedMutations = 0;
    await fc.assert(
      fc.asyncProperty(campaignCase, async (c) => {
        const headers: Record<string, string> = c.signedIn
          ? { authorization: `Bearer ${bearer}` }
          : {};
        // In the query: a header cannot carry "日本" (headers are bytes).
        const shardQuery =
          c.shardKey === undefined ? "" : `?shardKey=${encodeURIComponent(c.shardKey)}`;
        const [procedurePath, kind] = c.procedure;
        const mutates =
          c.transport === "rpc"
            ? kind === "mutation" || kind === "action"
            : c.rest[1].endsWith("/send") || c.rest[1].endsWith("/wordCount");
        const before = mutates ? await snapshot() : "";
        let response: Response;
        if (c.transport === "rpc") {
          response = await fetch(`${app.url}/_svc/rpc${shardQuery}`, {
            method: "POST",
            headers: { ...headers, "content-type": "application/json" },
            body: JSON.stringify({ path: procedurePath, args: c.args }),
          });
        } else {
          const { url, init } = restRequest(c.rest[0], c.rest[1], c.args, headers);
          if (c.shardKey !== undefined) url.searchParams.set("shardKey", c.shardKey);
          response = await fetch(url, init);
        }
        byTransport[c.transport]++;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const text = await response.text();
        expect(response.status, `${JSON.stringify(c)} → ${text.slice(0, 300)}`).toBeLessThan(500);
        if (mutates && response.status >= 400) {
          refusedMutations++;
          expect(await snapshot(), `refused ${JSON.stringify(c)} changed state`).toBe(before);
        }
      }),
      { numRuns: RUNS },
    );
    const figures = {
      runs: RUNS,
      rpc: byTransport.rpc,
      rest: byTransport.rest,
      refusedMutationsCompared: refusedMutations,
      statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      fiveHundreds: [...statuses].filter(([status]) => status >= 500).length,
    };
    console.log(`property campaign: ${JSON.stringify(figures)}`);
    const out = path.resolve(import.meta.dirname, "../../test-results");
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, "property-campaign.json"), JSON.stringify(figures, null, 2));
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
  }, 300_000);
});
