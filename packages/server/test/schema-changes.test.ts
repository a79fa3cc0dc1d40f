import { describe, expect, it } from "vitest";
import { defineSchema, defineTable, v } from "../src/index.ts";
import { compareSchemas } from "../src/schema/changes.ts";
import { describeValidator } from "../src/schema/describe-validator.ts";
import { schemaVersion, snapshotSchema } from "../src/schema/snapshot.ts";
import type { AnyValidator } from "../src/values/validator.ts";

type Fields = Record<string, AnyValidator>;
const snapshot = (fields: Fields, indexes: Record<string, string[]> = {}) => {
  let table = defineTable(fields);
  for (const [name, keys] of Object.entries(indexes)) {
    table = table.index(name, keys as never) as unknown as typeof table;
  }
  return snapshotSchema(defineSchema({ docs: table }));
};

/** One row per change kind: the table `docs` before and after, and what the classifier says. */
const rows: {
  name: string;
  before: Fields;
  after: Fields;
  kinds: string[];
  breaking: boolean;
  detail?: string;
}[] = [
  {
    name: "new optional field",
    before: { a: v.string() },
    after: { a: v.string(), b: v.optional(v.number()) },
    kinds: ["field-added-optional"],
    breaking: false,
  },
  {
    name: "new required field",
    before: { a: v.string() },
    after: { a: v.string(), title: v.string() },
    kinds: ["field-added-required"],
    breaking: true,
    detail: 'new required field "title" (string)',
  },
  {
    name: "removed field",
    before: { a: v.string(), b: v.number() },
    after: { a: v.string() },
    kinds: ["field-removed"],
    breaking: true,
    detail: 'field "b" (number) removed',
  },
  {
    name: "renamed field",
    before: { a: v.string(), body: v.string() },
    after: { a: v.string(), text: v.string() },
    kinds: ["field-renamed"],
    breaking: true,
    detail: 'field "body" renamed to "text"',
  },
  {
    name: "optional → required",
    before: { a: v.optional(v.string()) },
    after: { a: v.string() },
    kinds: ["field-now-required"],
    breaking: true,
  },
  {
    name: "required → optional",
    before: { a: v.string() },
    after: { a: v.optional(v.string()) },
    kinds: ["field-now-optional"],
    breaking: false,
  },
  {
    name: "widened: a union gains a member",
    before: { a: v.string() },
    after: { a: v.union(v.string(), v.number()) },
    kinds: ["field-widened"],
    breaking: false,
  },
  {
    name: "widened: literal → string, id → string",
    before: { a: v.literal("x"), b: v.id("users") },
    after: { a: v.string(), b: v.string() },
    kinds: ["field-widened", "field-widened"],
    breaking: false,
  },
  {
    name: "widened: nested object gains an optional field",
    before: { a: v.object({ x: v.number() }) },
    after: { a: v.object({ x: v.number(), y: v.optional(v.string()) }) },
    kinds: ["field-widened"],
    breaking: false,
  },
  {
    name: "narrowed: union loses a member",
    before: { a: v.union(v.string(), v.null()) },
    after: { a: v.string() },
    kinds: ["field-narrowed"],
    breaking: true,
    detail: 'field "a": string | null → string (narrower or different type)',
  },
  {
    name: "different type",
    before: { a: v.string() },
    after: { a: v.number() },
    kinds: ["field-narrowed"],
    breaking: true,
  },
  {
    name: "narrowed: nested object gains a required field",
    before: { a: v.array(v.object({ x: v.number() })) },
    after: { a: v.array(v.object({ x: v.number(), y: v.string() })) },
    kinds: ["field-narrowed"],
    breaking: true,
  },
  {
    name: "narrowed: record values",
    before: { a: v.record(v.any()) },
    after: { a: v.record(v.number()) },
    kinds: ["field-narrowed"],
    breaking: true,
  },
  {
    name: "widened: a longer maxLength, a lower min",
    before: { a: v.string({ maxLength: 10 }), b: v.number({ min: 5 }) },
    after: { a: v.string({ maxLength: 20 }), b: v.number({ min: 0 }) },
    kinds: ["field-widened", "field-widened"],
    breaking: false,
  },
  {
    name: "narrowed: a shorter maxLength",
    before: { a: v.string({ maxLength: 20 }) },
    after: { a: v.string({ maxLength: 10 }) },
    kinds: ["field-narrowed"],
    breaking: true,
    detail: 'field "a": string (maxLength 20) → string (maxLength 10) (narrower or different type)',
  },
  {
    name: "narrowed: a new pattern",
    before: { a: v.string() },
    after: { a: v.string({ pattern: /^[a-z]+$/ }) },
    kinds: ["field-narrowed"],
    breaking: true,
  },
  {
    name: "narrowed: integers only",
    before: { a: v.number({ min: 0 }) },
    after: { a: v.number({ min: 0, integer: true }) },
    kinds: ["field-narrowed"],
    breaking: true,
  },
  {
    name: "literal within a bounded string, counted in code points",
    before: { a: v.literal("ab😀") },
    after: { a: v.string({ maxLength: 3, pattern: /^ab/ }) },
    kinds: ["field-widened"],
    breaking: false,
  },
  {
    name: "description only: no change",
    before: { a: v.string() },
    after: { a: v.string().describe("the a") },
    kinds: [],
    breaking: false,
  },
];

describe("schema change classifier", () => {
  it.each(rows)("$name", ({ before, after, kinds, breaking, detail }) => {
    const changes = compareSchemas(snapshot(before), snapshot(after));
    expect(changes.map((change) => change.kind)).toEqual(kinds);
    expect(changes.some((change) => change.breaking)).toBe(breaking);
    expect(changes.every((change) => change.table === "docs")).toBe(true);
    if (detail !== undefined) expect(changes[0]?.detail).toBe(detail);
  });

  it.each<{
    name: string;
    before: Record<string, string[]>;
    after: Record<string, string[]>;
    kinds: string[];
  }>([
    {
      name: "new index",
      before: {},
      after: { by_a: ["a"] },
      kinds: ["index-added"],
    },
    { name: "removed index", before: { by_a: ["a"] }, after: {}, kinds: ["index-removed"] },
    {
      name: "index fields changed",
      before: { by_a: ["a"] },
      after: { by_a: ["a", "b"] },
      kinds: ["index-changed"],
    },
  ])("$name is compatible", ({ before, after, kinds }) => {
    const fields = { a: v.string(), b: v.string() };
    const changes = compareSchemas(snapshot(fields, before), snapshot(fields, after));
    expect(changes.map((change) => change.kind)).toEqual(kinds);
    expect(changes.every((change) => !change.breaking)).toBe(true);
  });

  it("records search indexes and calls adding, changing or removing one compatible", async () => {
    const fields = { body: v.string(), channel: v.string() };
    const plain = snapshotSchema(defineSchema({ docs: defineTable(fields) }));
    const searched = snapshotSchema(
      defineSchema({
        docs: defineTable(fields).searchIndex("search_body", { searchField: "body" }),
      }),
    );
    const filtered = snapshotSchema(
      defineSchema({
        docs: defineTable(fields).searchIndex("search_body", {
          searchField: "body",
          filterFields: ["channel"],
        }),
      }),
    );
    expect(searched.tables.docs?.searchIndexes).toEqual({
      search_body: { searchField: "body", filterFields: [] },
    });
    // A table without search indexes records none, so its version did not move.
    expect(plain.tables.docs).not.toHaveProperty("searchIndexes");
    expect(await schemaVersion(searched)).not.toBe(await schemaVersion(plain));
    const steps: [typeof plain, typeof plain, string, string][] = [
      [plain, searched, "search-index-added", 'new search index "search_body" (body)'],
      [
        searched,
        filtered,
        "search-index-changed",
        'search index "search_body": (body) → (body; filters channel)',
      ],
      [filtered, plain, "search-index-removed", 'search index "search_body" removed'],
    ];
    for (const [before, after, kind, detail] of steps) {
      expect(compareSchemas(before, after)).toEqual([
        { table: "docs", kind, name: "search_body", detail, breaking: false },
      ]);
    }
  });

  it("refuses a search index over a field the table does not have", () => {
    const table = defineTable({ body: v.string() });
    expect(() => table.searchIndex("s", { searchField: "title" as never })).toThrow(
      /searchField "title", which is not a field/,
    );
    expect(() =>
      table.searchIndex("s", { searchField: "body", filterFields: ["nope" as never] }),
    ).toThrow(/filter field "nope", which is not a field/);
    expect(() => table.index("s", ["body"]).searchIndex("s", { searchField: "body" })).toThrow(
      /index s is declared twice/,
    );
  });

  it("calls a new table compatible and a removed one breaking", () => {
    const one = snapshotSchema(defineSchema({ a: defineTable({ x: v.string() }) }));
    const two = snapshotSchema(defineSchema({ b: defineTable({ x: v.string() }) }));
    expect(compareSchemas(one, two)).toEqual([
      { table: "a", kind: "table-removed", detail: 'table "a" removed', breaking: true },
      { table: "b", kind: "table-added", detail: 'new table "b"', breaking: false },
    ]);
  });
});

describe("the recorded schema", () => {
  it("describes every validator kind canonically (descriptions left out)", () => {
    expect(
      describeValidator(
        v
          .object({
            s: v.string(),
            o: v.optional(v.union(v.literal(1n), v.literal("x"), v.null())),
            r: v.record(v.string(), v.array(v.id("users"))),
            b: v.bytes(),
          })
          .describe("ignored"),
      ),
    ).toEqual({
      type: "object",
      fields: {
        b: { type: "bytes" },
        o: {
          type: "union",
          members: [
            { type: "literal", value: "1", bigint: true },
            { type: "literal", value: "x" },
            { type: "null" },
          ],
          optional: true,
        },
        r: {
          type: "record",
          keys: { type: "string" },
          values: { type: "array", item: { type: "id", table: "users" } },
        },
        s: { type: "string" },
      },
    });
    expect(describeValidator(v.string({ minLength: 1, maxLength: 9, pattern: /^x/ }))).toEqual({
      type: "string",
      maxLength: 9,
      minLength: 1,
      pattern: "^x",
    });
    expect(describeValidator(v.number({ integer: true, min: 0, max: 10 }))).toEqual({
      type: "number",
      integer: true,
      max: 10,
      min: 0,
    });
  });

  it("hashes the same schema to the same version, whatever the declaration order", async () => {
    const a = defineSchema({
      x: defineTable({ a: v.string(), b: v.number() }).index("by_a", ["a"]),
      y: defineTable({ c: v.boolean() }),
    });
    const b = defineSchema({
      y: defineTable({ c: v.boolean() }),
      x: defineTable({ b: v.number(), a: v.string() }).index("by_a", ["a"]),
    });
    const version = await schemaVersion(snapshotSchema(a));
    expect(version).toMatch(/^[0-9a-f]{16}$/);
    expect(await schemaVersion(snapshotSchema(b))).toBe(version);
    const c = defineSchema({
      x: defineTable({ a: v.string() }),
      y: defineTable({ c: v.boolean() }),
    });
    expect(await schemaVersion(snapshotSchema(c))).not.toBe(version);
  });

  it.each([
    ["a table", () => defineSchema({ _svc_registry: defineTable({ a: v.string() }) })],
    ["a table, whatever its case", () => defineSchema({ _SVCx: defineTable({ a: v.string() }) })],
    ["an index", () => defineTable({ a: v.string() }).index("_svc_by_a" as never, ["a"])],
  ])("refuses %s named with the reserved _svc prefix", (_name, declare) => {
    expect(declare).toThrow(/is reserved: names starting with "_svc" belong to svc/);
  });
});
