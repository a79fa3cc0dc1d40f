import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { rpc, rpcValue } from "./rpc.ts";

/**
 * Property campaign (issue 14): arbitrary, client-chosen parts of a `ctx.db`
 * query — table, index, eq/range fields and values, order, take, paginate —
 * never answer a 5xx. Each case is one real RPC into a workerd shard.
 */

const SHARD = "query-campaign";
const RUNS = 400;

/** Values a hostile client sends: every JSON type, odd numbers, odd text. */
const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.constantFrom("日本", "🎌", "\ud800", "", "general", "ann", "a".repeat(300)),
  fc.double(),
  fc.integer(),
  fc.constantFrom(1.5, -1, 0, 2 ** 53, 1e308, -0),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
);
/** Mostly valid choices, so most cases reach SQL; the rest probe the refusals. */
const mostly = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: hostile, weight: 1 });
const field = mostly(fc.constantFrom("channel", "author", "_creationTime"));

/** Well-formed queries with hostile values where values go: they must reach SQL and answer. */
const wellFormed = fc.constantFrom("by_channel", "by_author").chain((index) =>
  fc.record({
    table: fc.constant("messages"),
    index: fc.constant(index),
    eq: hostile.map((value) => [[index === "by_channel" ? "channel" : "author", value]]),
    order: fc.constantFrom("asc", "desc"),
    take: fc.integer({ min: 0, max: 20 }),
  }),
);

const anySpec = fc.record(
  {
    table: mostly(fc.constantFrom("messages", "messages", "notes", "nope", "__proto__")),
    index: mostly(fc.constantFrom("by_channel", "by_author", "by_n", "constructor")),
    eq: fc.array(fc.tuple(field, mostly(fc.constantFrom("general", "日本", "ann"))), {
      maxLength: 2,
    }),
    bounds: fc.array(fc.tuple(fc.constantFrom("gt", "gte", "lt", "lte", "eq"), field, hostile), {
      maxLength: 2,
    }),
    order: mostly(fc.constantFrom("asc", "desc")),
    take: mostly(fc.integer({ min: 0, max: 50 })),
    paginate: fc.record({
      cursor: mostly(fc.constant(null)),
      numItems: mostly(fc.integer({ min: 1, max: 50 })),
    }),
  },
  { requiredKeys: [] },
);

const spec = fc.oneof(wellFormed, anySpec);

beforeAll(async () => {
  for (const [author, channel] of [
    ["ann", "general"],
    ["ann", "日本"],
    ["bob", "general"],
  ]) {
    await rpcValue("messages:send", { body: "seed", channel }, { user: author, shardKey: SHARD });
  }
});

describe("ctx.db query campaign", () => {
  it(`answers ${RUNS} arbitrary queries without a 5xx`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(spec, fc.boolean(), async (querySpec, signedIn) => {
        const response = await rpc(
          "messages:fuzzQuery",
          { spec: querySpec },
          { shardKey: SHARD, ...(signedIn ? { user: "ann" } : {}) },
        );
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const body = (await response.json()) as { code?: string };
        expect(response.status, JSON.stringify({ querySpec, body })).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
    const summary = Object.fromEntries([...statuses].sort(([a], [b]) => a - b));
    console.log(`ctx.db campaign: ${RUNS} cases, statuses ${JSON.stringify(summary)}`);
    // The campaign reached real queries, not only refusals.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 10);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
  });
});
