import { describe, expect, it } from "vitest";
import { constraintsOf, resolveRef, type Schema, typeLabel } from "../../ui/lib/json-schema.ts";

describe("schema helpers", () => {
  const doc: Schema = {
    openapi: "3.1.0",
    components: { schemas: { "A/B": { type: "object" }, Message: { type: "object" } } },
  };

  it.each<{ schema: Schema; expected: string }>([
    { schema: { type: "string" }, expected: "string" },
    { schema: { type: ["integer", "null"] }, expected: "integer | null" },
    {
      schema: { type: "array", items: { $ref: "#/components/schemas/Message" } },
      expected: "array of Message",
    },
    { schema: { enum: ["a", "b"] }, expected: '"a" | "b"' },
    { schema: { const: 400 }, expected: "400" },
    { schema: { anyOf: [{ type: "string" }, { type: "number" }] }, expected: "string | number" },
    { schema: { properties: { a: {} } }, expected: "object" },
    { schema: {}, expected: "any" },
  ])("typeLabel $expected", ({ schema, expected }) => {
    expect(typeLabel(schema, doc)).toBe(expected);
  });

  it("lists constraints worth showing", () => {
    expect(constraintsOf({ type: "string", minLength: 1, maxLength: 256, pattern: "^x$" })).toEqual(
      ["pattern ^x$", "min length 1", "max length 256"],
    );
    expect(constraintsOf({ type: "integer", default: 25, minimum: 1 })).toEqual([
      "≥ 1",
      "default 25",
    ]);
  });

  it("resolves escaped local references and nothing else", () => {
    expect(resolveRef(doc, "#/components/schemas/A~1B")).toEqual({ type: "object" });
    expect(resolveRef(doc, "https://elsewhere.example/schema.json")).toBeUndefined();
    expect(resolveRef(doc, "#/components/schemas/Missing")).toBeUndefined();
  });
});
