import { describe, expect, it } from "vitest";
import { issuePath } from "../../ui/lib/field-values.ts";
import { checkValue, fieldProblems } from "../../ui/lib/schema-check.ts";

const INT64 = {
  type: "object",
  properties: { $int64: { type: "string", pattern: "^-?[0-9]{1,19}$" } },
  required: ["$int64"],
  additionalProperties: false,
};

describe("checking a value against a field's validator", () => {
  it.each([
    ["a string", { type: "string" }, "hi", null],
    ["a number for a string", { type: "string" }, 42, "expected string, got number"],
    ["text for a number", { type: "number" }, "abc", "expected number, got string"],
    ["a fraction for an integer", { type: "integer" }, 1.5, "expected integer, got number"],
    ["under a minimum", { type: "number", minimum: 1 }, 0, "must be at least 1"],
    [
      "over a length in code points",
      { type: "string", maxLength: 2 },
      "😀😀😀",
      "must be at most 2 characters",
    ],
    ["a wrong literal", { const: "message_posted" }, "posted", 'expected "message_posted"'],
    [
      "one of literals",
      { anyOf: [{ const: "a" }, { const: "b" }] },
      "c",
      'expected one of "a", "b"',
    ],
    ["a nullable string given null", { anyOf: [{ type: "string" }, { type: "null" }] }, null, null],
    [
      "an id of another table",
      { type: "string", pattern: "^messages_[0-9a-z]{26}$" },
      "notes_1",
      "must match ^messages_[0-9a-z]{26}$",
    ],
    ["an int64 in svc's form", INT64, { $int64: "9007199254740993" }, null],
    ["an int64 as a number", INT64, 5, "expected object, got number"],
    ["anything", {}, { any: ["thing"] }, null],
  ])("%s", (_name, schema, value, message) => {
    expect(checkValue(schema, value)?.message ?? null).toBe(message);
  });

  it("says where inside an array or an object the problem is", () => {
    expect(checkValue({ type: "array", items: { type: "string" } }, ["a", 1])).toEqual({
      at: "[1]",
      message: "expected string, got number",
    });
    const shape = {
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    };
    expect(checkValue(shape, {})).toEqual({ at: ".name", message: "is required" });
    expect(checkValue(shape, { name: "x", extra: 1 })).toEqual({
      at: ".extra",
      message: "unexpected field",
    });
    expect(
      checkValue({ type: "object", additionalProperties: { type: "number" } }, { a: "1" }),
    ).toEqual({ at: ".a", message: "expected number, got string" });
  });

  it("names each field of a document once: missing, wrong, or not the table's", () => {
    const fields = [
      { name: "body", optional: false, schema: { type: "string" } },
      { name: "tags", optional: true, schema: { type: "array", items: { type: "string" } } },
      { name: "channel", optional: false, schema: { type: "string" } },
    ];
    expect(fieldProblems(fields, { body: 42, tags: ["a", 2], colour: "red" })).toEqual({
      body: "expected string, got number",
      tags: "[1]: expected string, got number",
      channel: "is required",
      colour: "is not a field of this table",
    });
    expect(fieldProblems(fields, { body: "", channel: "general" })).toEqual({});
  });

  it("reads a server issue's path without the request's prefix", () => {
    expect(issuePath("body.body")).toBe("body");
    expect(issuePath("body.fields.tags[2]")).toBe("tags[2]");
    expect(issuePath("args.limit")).toBe("limit");
  });
});
