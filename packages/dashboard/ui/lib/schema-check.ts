/**
 * Checks a value against a field's validator as the server sends it (JSON
 * Schema from `v.*`: types, literals, unions, arrays, objects, records,
 * string and number bounds, svc's `$int64` / `$bytes` forms), so the data
 * studio refuses a wrong value as it is typed instead of after Apply. The
 * server checks again; this is the same rule, seen earlier. Pure,
 * unit-tested in Node.
 */
import type { FieldSchema } from "./field-values.ts";

/** What is wrong with a value: where inside it (`""` for the value itself, `[2]`, `.name`) and why. */
export interface ValueIssue {
  at: string;
  message: string;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function typeIssue(schema: FieldSchema, value: unknown, at: string): ValueIssue | null {
  const expected = schema.type;
  const got = kindOf(value);
  const wrong = (name: string) => ({ at, message: `expected ${name}, got ${got}` });
  switch (expected) {
    case "string": {
      if (typeof value !== "string") return wrong("string");
      const length = [...value].length;
      if (typeof schema.minLength === "number" && length < schema.minLength)
        return { at, message: `must be at least ${schema.minLength} characters` };
      if (typeof schema.maxLength === "number" && length > schema.maxLength)
        return { at, message: `must be at most ${schema.maxLength} characters` };
      if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value))
        return { at, message: `must match ${schema.pattern}` };
      return null;
    }
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) return wrong("number");
      if (expected === "integer" && !Number.isInteger(value)) return wrong("integer");
      if (typeof schema.minimum === "number" && value < schema.minimum)
        return { at, message: `must be at least ${schema.minimum}` };
      if (typeof schema.maximum === "number" && value > schema.maximum)
        return { at, message: `must be at most ${schema.maximum}` };
      return null;
    }
    case "boolean":
      return typeof value === "boolean" ? null : wrong("boolean");
    case "null":
      return value === null ? null : wrong("null");
    case "array": {
      if (!Array.isArray(value)) return wrong("array");
      const items = schema.items as FieldSchema | undefined;
      if (items === undefined) return null;
      for (const [index, item] of value.entries()) {
        const issue = issueOf(items, item, `${at}[${index}]`);
        if (issue !== null) return issue;
      }
      return null;
    }
    case "object":
      return isPlainObject(value) ? objectIssue(schema, value, at) : wrong("object");
    default:
      return null;
  }
}

function objectIssue(
  schema: FieldSchema,
  value: Record<string, unknown>,
  at: string,
): ValueIssue | null {
  const properties = (schema.properties ?? {}) as Record<string, FieldSchema>;
  for (const name of (schema.required ?? []) as string[]) {
    if (!Object.hasOwn(value, name)) return { at: `${at}.${name}`, message: "is required" };
  }
  for (const [name, field] of Object.entries(value)) {
    const known = Object.hasOwn(properties, name) ? properties[name] : undefined;
    const extra = schema.additionalProperties;
    if (known === undefined && extra === false)
      return { at: `${at}.${name}`, message: "unexpected field" };
    const fieldSchema = known ?? (isPlainObject(extra) ? (extra as FieldSchema) : undefined);
    if (fieldSchema === undefined) continue;
    const issue = issueOf(fieldSchema, field, `${at}.${name}`);
    if (issue !== null) return issue;
  }
  return null;
}

function issueOf(schema: FieldSchema, value: unknown, at: string): ValueIssue | null {
  if ("const" in schema) {
    return same(schema.const, value)
      ? null
      : { at, message: `expected ${JSON.stringify(schema.const)}` };
  }
  const members = (schema.anyOf ?? schema.oneOf) as FieldSchema[] | undefined;
  if (Array.isArray(members) && members.length > 0) {
    const issues = members.map((member) => issueOf(member, value, at));
    if (issues.some((issue) => issue === null)) return null;
    if (members.every((member) => "const" in member)) {
      const choices = members.map((member) => JSON.stringify(member.const)).join(", ");
      return { at, message: `expected one of ${choices}` };
    }
    // The member of the value's own kind says best what is wrong inside it.
    const sameKind = members.findIndex(
      (member) =>
        member.type === kindOf(value) || (member.type === "integer" && typeof value === "number"),
    );
    return issues[sameKind === -1 ? 0 : sameKind] ?? null;
  }
  return typeIssue(schema, value, at);
}

/**
 * The first thing wrong with `value` for `schema`, or `null` when it passes.
 *
 * @example
 * ```ts
 * checkValue({ type: "string" }, 42); // { at: "", message: "expected string, got number" }
 * checkValue({ type: "array", items: { type: "string" } }, ["a", 1]); // { at: "[1]", … }
 * ```
 */
export function checkValue(schema: FieldSchema, value: unknown): ValueIssue | null {
  return issueOf(schema, value, "");
}

/**
 * What is wrong with each field of a document for its table: a required
 * field left out, a value its validator refuses (the path inside the value
 * first, once), a field the table does not declare. Empty when it passes.
 *
 * @example
 * ```ts
 * fieldProblems([{ name: "body", optional: false, schema: { type: "string" } }], { body: 42 });
 * // { body: "expected string, got number" }
 * ```
 */
export function fieldProblems(
  fields: readonly { name: string; optional: boolean; schema: FieldSchema }[],
  values: Record<string, unknown>,
): Record<string, string> {
  const problems: Record<string, string> = {};
  const declared = new Set(fields.map((field) => field.name));
  for (const field of fields) {
    const value = values[field.name];
    if (value === undefined) {
      if (!field.optional) problems[field.name] = "is required";
      continue;
    }
    const issue = checkValue(field.schema, value);
    if (issue !== null) {
      problems[field.name] = issue.at === "" ? issue.message : `${issue.at}: ${issue.message}`;
    }
  }
  for (const name of Object.keys(values)) {
    if (!declared.has(name)) problems[name] = "is not a field of this table";
  }
  return problems;
}
