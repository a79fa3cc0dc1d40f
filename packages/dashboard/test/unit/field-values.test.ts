import { describe, expect, it } from "vitest";
import {
  cellText,
  choicesOf,
  controlOf,
  fieldOfIssue,
  idTableOf,
  jsonOfTyped,
  textOfValue,
  typedOfJson,
  valueOfText,
} from "../../ui/lib/field-values.ts";

describe("field values", () => {
  it.each([
    [{ type: "string" }, "string"],
    [{ type: "string", pattern: "^messages_" }, "string"],
    [{ type: "number" }, "number"],
    [{ type: "boolean" }, "boolean"],
    [{ anyOf: [{ const: "asc" }, { const: "desc" }] }, "choice"],
    [{ const: 3 }, "choice"],
    [{ type: "object", properties: { $int64: { type: "string" } } }, "json"],
    [{ anyOf: [{ type: "string" }, { type: "null" }] }, "json"],
    [{}, "json"],
  ] as const)("gives %j the %s control", (schema, control) => {
    expect(controlOf(schema)).toBe(control);
  });

  it.each([
    [{ type: "string", pattern: "^messages_[0-9a-z]{26}$", "x-svc-table": "messages" }, "messages"],
    [{ anyOf: [{ type: "string", "x-svc-table": "notes" }, { type: "null" }] }, "notes"],
    [{ type: "string" }, null],
    [{ anyOf: [{ type: "string" }, { type: "null" }] }, null],
  ] as const)("reads the table of an id field from %j", (schema, table) => {
    expect(idTableOf(schema)).toBe(table);
  });

  it("lists the fixed values of literal unions only", () => {
    expect(choicesOf({ anyOf: [{ const: "a" }, { const: 1 }, { const: true }] })).toEqual([
      "a",
      1,
      true,
    ]);
    expect(choicesOf({ anyOf: [{ const: "a" }, { type: "string" }] })).toBeNull();
  });

  it("turns typed text into values, leaving what does not parse for the server to refuse", () => {
    expect(valueOfText("number", " 42 ", false)).toBe(42);
    expect(valueOfText("number", "soon", false)).toBe("soon");
    expect(valueOfText("number", "", true)).toBeUndefined();
    expect(valueOfText("string", "", true)).toBeUndefined();
    expect(valueOfText("string", "", false)).toBe("");
    expect(valueOfText("boolean", "false", false)).toBe(false);
    expect(valueOfText("choice", '"desc"', false)).toBe("desc");
    expect(valueOfText("json", '{"$int64":"9007199254740993"}', false)).toEqual({
      $int64: "9007199254740993",
    });
    expect(valueOfText("json", "{oops", false)).toBe("{oops");
  });

  it("shows stored values as the text their control edits", () => {
    expect(textOfValue("string", "hi")).toBe("hi");
    expect(textOfValue("number", 1.5)).toBe("1.5");
    expect(textOfValue("choice", "asc")).toBe('"asc"');
    expect(textOfValue("json", [1, 2])).toBe(JSON.stringify([1, 2], null, 2));
    expect(textOfValue("number", undefined)).toBe("");
  });

  it("finds the field a validation issue names", () => {
    expect(fieldOfIssue("body.channel")).toBe("channel");
    expect(fieldOfIssue("body.tags[2]")).toBe("tags");
    expect(fieldOfIssue("body.fields.n")).toBe("n");
    expect(fieldOfIssue("args.limit")).toBe("limit");
    expect(fieldOfIssue("body")).toBeNull();
  });

  it("writes browse parameters as JSON typed by the field, and reads them back", () => {
    expect(jsonOfTyped("string", "general")).toBe('"general"');
    expect(jsonOfTyped("number", "5")).toBe("5");
    expect(typedOfJson('"general"')).toBe("general");
    expect(typedOfJson("5")).toBe("5");
    expect(cellText({ a: 1 })).toBe('{"a":1}');
  });
});
