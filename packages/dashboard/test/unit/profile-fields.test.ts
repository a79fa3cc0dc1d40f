import { describe, expect, it } from "vitest";
import type { EditableUserField } from "../../ui/api/types.ts";
import { changesOf, inputOf, labelOf, sentValueOf } from "../../ui/lib/profile-fields.ts";

const field = (
  name: string,
  type: EditableUserField["type"],
  extra: Partial<EditableUserField> = {},
): EditableUserField => ({ name, type, required: false, unique: false, ...extra });

describe("profile fields", () => {
  it("names fields for people", () => {
    expect(labelOf("emailVerified")).toBe("Email verified");
    expect(labelOf("phoneNumber")).toBe("Phone number");
    expect(labelOf("name")).toBe("Name");
  });

  it("shows current values in their inputs", () => {
    expect(inputOf(field("emailVerified", "boolean"), true)).toBe(true);
    expect(inputOf(field("image", "string"), null)).toBe("");
    expect(inputOf(field("tags", "string[]"), ["a", "b"])).toBe("a, b");
    expect(inputOf(field("prefs", "json"), { a: 1 })).toBe('{\n  "a": 1\n}');
    expect(inputOf(field("age", "number"), 42)).toBe("42");
  });

  it("checks what was typed before it is sent", () => {
    expect(sentValueOf(field("name", "string", { required: true }), " ")).toEqual({
      problem: "Enter name.",
    });
    expect(sentValueOf(field("image", "string"), "")).toEqual({ value: null });
    expect(sentValueOf(field("email", "string", { format: "email" }), "nope")).toEqual({
      problem: "Enter an email address like ann@example.com.",
    });
    expect(sentValueOf(field("image", "string", { format: "url" }), "pic.png")).toEqual({
      problem: "Enter a full address, like https://example.com/picture.png.",
    });
    expect(sentValueOf(field("username", "string", { minLength: 3 }), "ab")).toEqual({
      problem: "Use at least 3 characters.",
    });
    expect(sentValueOf(field("age", "number"), "4x")).toEqual({ problem: "Enter a number." });
    expect(sentValueOf(field("age", "number"), "42")).toEqual({ value: 42 });
    expect(sentValueOf(field("plan", "enum", { options: ["free", "pro"] }), "pro")).toEqual({
      value: "pro",
    });
    expect(sentValueOf(field("tags", "string[]"), "a, ,b")).toEqual({ value: ["a", "b"] });
    expect(sentValueOf(field("prefs", "json"), "{")).toEqual({
      problem: expect.stringMatching(/^This is not valid JSON/),
    });
  });

  it("sends only the fields that changed", () => {
    const fields = [field("name", "string", { required: true }), field("emailVerified", "boolean")];
    const profile = { name: "Ada", emailVerified: false };
    expect(changesOf(fields, profile, {})).toEqual({ changes: {}, problems: {} });
    expect(changesOf(fields, profile, { name: "Ada", emailVerified: true })).toEqual({
      changes: { emailVerified: true },
      problems: {},
    });
    expect(changesOf(fields, profile, { name: "" })).toEqual({
      changes: {},
      problems: { name: "Enter name." },
    });
  });
});
