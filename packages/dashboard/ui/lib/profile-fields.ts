/**
 * The "Edit profile" form's logic: `capabilities.userFields` describe what
 * `PATCH users/:id` takes (type, required, format, length); these turn each
 * field's current value (`profile`) into what its input shows, and what the
 * operator typed back into the value to send, or a problem in plain words
 * before anything is sent. Pure functions, unit-tested in Node.
 */
import type { EditableUserField } from "../api/types.ts";
import { emailProblem } from "./form-checks.ts";

/** What a field's input holds: text for most, a boolean for a checkbox. */
export type FieldInput = string | boolean;

/** A field's name for people: `emailVerified` → "Email verified". */
export function labelOf(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An ISO time as a `datetime-local` value in the browser's time zone. */
function localTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** What the field's input shows for its current value. */
export function inputOf(field: EditableUserField, value: unknown): FieldInput {
  if (field.type === "boolean") return value === true;
  if (value === null || value === undefined) return "";
  switch (field.type) {
    case "date":
      return localTime(String(value));
    case "json":
      return JSON.stringify(value, null, 2);
    case "string[]":
    case "number[]":
      return Array.isArray(value) ? value.join(", ") : String(value);
    default:
      return String(value);
  }
}

function textProblem(field: EditableUserField, text: string): string | undefined {
  if (field.format === "email") return emailProblem(text);
  if (field.format === "url") {
    try {
      new URL(text);
    } catch {
      return "Enter a full address, like https://example.com/picture.png.";
    }
  }
  if (field.minLength !== undefined && text.length < field.minLength) {
    return `Use at least ${field.minLength} characters.`;
  }
  if (field.maxLength !== undefined && text.length > field.maxLength) {
    return `Use at most ${field.maxLength} characters.`;
  }
  return undefined;
}

/**
 * The value to send for what the input holds, or what is wrong with it. An
 * emptied optional field is `null` (the server clears it).
 */
export function sentValueOf(
  field: EditableUserField,
  input: FieldInput,
): { value: unknown } | { problem: string } {
  if (typeof input === "boolean") return { value: input };
  const text = field.type === "json" ? input : input.trim();
  if (text.trim() === "") {
    return field.required
      ? { problem: `Enter ${labelOf(field.name).toLowerCase()}.` }
      : { value: null };
  }
  switch (field.type) {
    case "number": {
      const number = Number(text);
      return Number.isFinite(number) ? { value: number } : { problem: "Enter a number." };
    }
    case "date": {
      const at = new Date(text);
      return Number.isNaN(at.getTime())
        ? { problem: "Pick a date and time." }
        : { value: at.toISOString() };
    }
    case "json":
      try {
        return { value: JSON.parse(text) };
      } catch (error) {
        return { problem: `This is not valid JSON: ${(error as Error).message}.` };
      }
    case "string[]":
      return {
        value: text
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean),
      };
    case "number[]": {
      const numbers = text.split(",").map((item) => Number(item.trim()));
      return numbers.every(Number.isFinite)
        ? { value: numbers }
        : { problem: "Enter numbers separated by commas." };
    }
    case "enum":
      return field.options === undefined || field.options.includes(text)
        ? { value: text }
        : { problem: `Pick one of ${field.options.join(", ")}.` };
    default: {
      const problem = textProblem(field, text);
      return problem === undefined ? { value: text } : { problem };
    }
  }
}

/**
 * What to send for a whole form: only the fields whose input changed from
 * the current value, and the problem of every field in trouble.
 */
export function changesOf(
  fields: readonly EditableUserField[],
  profile: Readonly<Record<string, unknown>>,
  inputs: Readonly<Record<string, FieldInput>>,
): { changes: Record<string, unknown>; problems: Record<string, string> } {
  const changes: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const input = inputs[field.name] ?? inputOf(field, profile[field.name]);
    if (input === inputOf(field, profile[field.name])) continue;
    const result = sentValueOf(field, input);
    if ("problem" in result) problems[field.name] = result.problem;
    else changes[field.name] = result.value;
  }
  return { changes, problems };
}
