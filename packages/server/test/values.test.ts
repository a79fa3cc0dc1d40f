import { describe, expect, it } from "vitest";
import { v } from "../src/index.ts";
import { newId } from "../src/values/ids.ts";
import { fromJsonValue, stringifyJson, toJsonValue } from "../src/values/json-codec.ts";
import { type AnyValidator, type Issue, toValidationIssues } from "../src/values/validator.ts";

function issuesOf(validator: AnyValidator, value: unknown) {
  const issues: Issue[] = [];
  validator.check(value, { path: [], issues });
  return toValidationIssues("args", issues);
}

const messageId = newId("messages");

describe("v.* accepts what it should", () => {
  it.each([
    ["string", v.string(), "hi"],
    ["number", v.number(), 1.5],
    ["boolean", v.boolean(), false],
    ["null", v.null(), null],
    ["int64", v.int64(), 2n ** 62n],
    ["bytes", v.bytes(), new Uint8Array([1, 2])],
    ["id", v.id("messages"), messageId],
    ["literal", v.literal("a"), "a"],
    ["object", v.object({ a: v.string(), b: v.optional(v.number()) }), { a: "x" }],
    ["array", v.array(v.number()), [1, 2, 3]],
    ["record", v.record(v.number()), { x: 1, y: 2 }],
    ["record with keys", v.record(v.string(), v.boolean()), { x: true }],
    ["union", v.union(v.string(), v.number()), 3],
    ["any", v.any(), { whatever: [1] }],
    ["string at its bounds", v.string({ minLength: 2, maxLength: 3 }), "abc"],
    ["string bounds count code points", v.string({ maxLength: 3 }), "😀😀😀"],
    ["string pattern", v.string({ pattern: /^[a-z]+-\d+$/ }), "room-42"],
    ["string pattern with Unicode classes", v.string({ pattern: "^\\p{L}+$" }), "héllo"],
    ["integer", v.number({ integer: true }), 3],
    ["integer written as a float", v.number({ integer: true }), 3.0],
    ["number at its bounds", v.number({ min: -1, max: 1 }), 1],
  ] as const)("%s", (_name, validator, value) => {
    expect(issuesOf(validator, value)).toEqual([]);
    expect(validator["~standard"].validate(value)).toEqual({ value });
  });
});

describe("v.* rejects with the path", () => {
  it.each([
    ["string", v.string(), 1, [{ path: "args", message: "expected string, got number" }]],
    ["number NaN", v.number(), Number.NaN, [{ path: "args", message: "expected a finite number" }]],
    ["boolean", v.boolean(), "true", [{ path: "args", message: "expected boolean, got string" }]],
    ["null", v.null(), undefined, [{ path: "args", message: "expected null, got undefined" }]],
    ["int64 type", v.int64(), 5, [{ path: "args", message: "expected int64, got number" }]],
    ["int64 range", v.int64(), 2n ** 64n, [{ path: "args", message: "int64 out of range" }]],
    ["bytes", v.bytes(), [1], [{ path: "args", message: "expected bytes, got array" }]],
    [
      "id of other table",
      v.id("users"),
      messageId,
      [{ path: "args", message: "expected id of users" }],
    ],
    ["literal", v.literal("a"), "b", [{ path: "args", message: 'expected "a", got "b"' }]],
    [
      "nested array path",
      v.object({ items: v.array(v.object({ name: v.string() })) }),
      { items: [{ name: "a" }, { name: "b" }, { name: 3 }] },
      [{ path: "args.items[2].name", message: "expected string, got number" }],
    ],
    [
      "missing and extra fields",
      v.object({ a: v.string() }),
      { b: 1 },
      [
        { path: "args.a", message: "required field is missing" },
        { path: "args.b", message: "unexpected field" },
      ],
    ],
    ["object type", v.object({}), [], [{ path: "args", message: "expected object, got array" }]],
    [
      "record value",
      v.record(v.number()),
      { "a b": "x" },
      [{ path: 'args["a b"]', message: "expected number, got string" }],
    ],
    [
      "union",
      v.union(v.string(), v.number()),
      true,
      [{ path: "args", message: "expected string | number, got boolean" }],
    ],
    [
      "union reports the closest member",
      v.union(v.object({ kind: v.literal("a"), n: v.number() }), v.string()),
      { kind: "a", n: "x" },
      [{ path: "args.n", message: "expected number, got string" }],
    ],
    [
      "string too short",
      v.string({ minLength: 2 }),
      "😀",
      [{ path: "args", message: "expected at least 2 characters, got 1" }],
    ],
    [
      "string too long",
      v.string({ maxLength: 3 }),
      "abcd",
      [{ path: "args", message: "expected at most 3 characters" }],
    ],
    [
      "string off pattern",
      v.object({ slug: v.string({ pattern: "^[a-z]+$" }) }),
      { slug: "Nope" },
      [{ path: "args.slug", message: "expected text matching /^[a-z]+$/" }],
    ],
    [
      "string over its length runs no pattern",
      v.string({ maxLength: 2, pattern: /^\d+$/ }),
      "abc",
      [{ path: "args", message: "expected at most 2 characters" }],
    ],
    [
      "string under its length runs no pattern",
      v.string({ minLength: 4, pattern: /^\d+$/ }),
      "abc",
      [{ path: "args", message: "expected at least 4 characters, got 3" }],
    ],
    [
      "bounded string, wrong type",
      v.string({ minLength: 1 }),
      5,
      [{ path: "args", message: "expected string, got number" }],
    ],
    [
      "not an integer",
      v.number({ integer: true }),
      1.5,
      [{ path: "args", message: "expected an integer" }],
    ],
    ["below min", v.number({ min: 0 }), -0.5, [{ path: "args", message: "expected at least 0" }]],
    [
      "above max, in an array",
      v.array(v.number({ max: 10 })),
      [1, 11],
      [{ path: "args[1]", message: "expected at most 10" }],
    ],
  ] as const)("%s", (_name, validator, value, expected) => {
    expect(issuesOf(validator, value)).toEqual(expected);
    const standard = validator["~standard"].validate(value);
    expect("issues" in standard && standard.issues?.length).toBe(expected.length);
  });
});

describe("JSON Schema 2020-12", () => {
  it("describes objects, optional fields, ids and descriptions", () => {
    const schema = v
      .object({
        body: v.string().describe("Text"),
        tags: v.optional(v.array(v.string())),
        channel: v.id("channels"),
      })
      .toJsonSchema();
    expect(schema).toEqual({
      type: "object",
      properties: {
        body: { type: "string", description: "Text" },
        tags: { type: "array", items: { type: "string" } },
        channel: { type: "string", pattern: "^channels_[0-9a-z]{26}$", "x-svc-table": "channels" },
      },
      required: ["body", "channel"],
      additionalProperties: false,
    });
  });

  it("describes the transport encodings of int64 and bytes", () => {
    expect(v.int64().toJsonSchema()).toMatchObject({ type: "object", required: ["$int64"] });
    expect(v.bytes().toJsonSchema()).toMatchObject({
      properties: { $bytes: { contentEncoding: "base64" } },
    });
    expect(v.union(v.literal(1), v.null()).toJsonSchema()).toEqual({
      anyOf: [{ const: 1 }, { type: "null" }],
    });
    expect(v.record(v.number()).toJsonSchema()).toEqual({
      type: "object",
      additionalProperties: { type: "number" },
    });
  });
});

describe("bounds in JSON Schema", () => {
  it.each([
    ["v.string()", v.string(), { type: "string" }],
    [
      "lengths",
      v.string({ minLength: 1, maxLength: 280 }),
      { type: "string", minLength: 1, maxLength: 280 },
    ],
    [
      "a RegExp pattern",
      v.string({ pattern: /^[a-z]+$/ }),
      { type: "string", pattern: "^[a-z]+$" },
    ],
    [
      "a string pattern, as written",
      v.string({ pattern: "a/b" }),
      { type: "string", pattern: "a/b" },
    ],
    ["v.number()", v.number(), { type: "number" }],
    ["integer", v.number({ integer: true }), { type: "integer" }],
    ["bounds", v.number({ min: 0, max: 1.5 }), { type: "number", minimum: 0, maximum: 1.5 }],
    [
      "described and optional",
      v.optional(v.number({ integer: true, min: 1 }).describe("Page size")),
      { type: "integer", minimum: 1, description: "Page size" },
    ],
  ] as const)("%s", (_name, validator, schema) => {
    expect(validator.toJsonSchema()).toEqual(schema);
  });

  it.each([
    ["negative minLength", () => v.string({ minLength: -1 })],
    ["fractional maxLength", () => v.string({ maxLength: 2.5 })],
    ["minLength above maxLength", () => v.string({ minLength: 3, maxLength: 2 })],
    ["a flag JSON Schema cannot carry", () => v.string({ pattern: /abc/i })],
    ["a pattern invalid with Unicode semantics", () => v.string({ pattern: "\\-" })],
    ["an infinite bound", () => v.number({ max: Number.POSITIVE_INFINITY })],
    ["min above max", () => v.number({ min: 2, max: 1 })],
  ])("refuses %s when the validator is defined", (_name, define) => {
    expect(define).toThrow(/^svc: v\.(string|number)/);
  });

  it("keeps bounds through describe() and is frozen", () => {
    const name = v.string({ maxLength: 2 });
    const described = name.describe("Initials");
    expect(Object.isFrozen(described)).toBe(true);
    expect(issuesOf(described, "abc")).toEqual([
      { path: "args", message: "expected at most 2 characters" },
    ]);
    expect(issuesOf(name, "ab")).toEqual([]);
  });
});

describe("JSON codec", () => {
  it("round-trips bigints and bytes through their tagged forms", () => {
    const value = {
      big: -(2n ** 63n),
      bytes: new Uint8Array([0, 255]),
      list: [1, undefined],
      skip: undefined,
    };
    expect(toJsonValue(value)).toEqual({
      big: { $int64: "-9223372036854775808" },
      bytes: { $bytes: "AP8=" },
      list: [1, null],
    });
    expect(fromJsonValue(JSON.parse(stringifyJson(value)))).toEqual({
      big: -(2n ** 63n),
      bytes: new Uint8Array([0, 255]),
      list: [1, null],
    });
  });

  it("leaves look-alikes that are not exactly one tagged key alone", () => {
    expect(fromJsonValue({ $int64: "12", other: 1 })).toEqual({ $int64: "12", other: 1 });
    expect(fromJsonValue({ $int64: "1e3" })).toEqual({ $int64: "1e3" });
  });
});
