/**
 * Between a field's validator (as JSON Schema) and what an operator types:
 * which control a field gets, how its typed text becomes a value, and how a
 * stored value becomes text again. Values stay in svc's JSON encoding
 * (`{"$int64":"…"}`, `{"$bytes":"…"}`) end to end, so nothing is lost on the
 * way through the dashboard. Text that does not parse as the field's type is
 * sent as it was typed: the server's validation then names the field, and the
 * form shows that answer beside it. Pure, unit-tested in Node.
 */

/** A field's validator as JSON Schema, read loosely. */
export type FieldSchema = { readonly [key: string]: unknown };

/** The control a field gets: a text box, a number box, true/false, one of fixed values, or JSON. */
export type FieldControl = "string" | "number" | "boolean" | "choice" | "json";

/** The fixed values of a `v.literal` or a union of them, or `null` when the schema allows others. */
export function choicesOf(schema: FieldSchema): (string | number | boolean)[] | null {
  const options = "const" in schema ? [schema] : (schema.anyOf ?? schema.oneOf);
  if (!Array.isArray(options) || options.length === 0) return null;
  const values: (string | number | boolean)[] = [];
  for (const option of options) {
    const value = (option as FieldSchema | null)?.const;
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
      return null;
    values.push(value);
  }
  return values;
}

/**
 * The table whose documents a field's values are ids of (`v.id("messages")`
 * publishes `x-svc-table`; also inside a union such as `v.union(v.id(…),
 * v.null())`), or `null`: such a value links to its document.
 *
 * @example idTableOf({ type: "string", "x-svc-table": "messages" }) // "messages"
 */
export function idTableOf(schema: FieldSchema): string | null {
  if (typeof schema["x-svc-table"] === "string") return schema["x-svc-table"];
  const options = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(options)) return null;
  for (const option of options) {
    const table = (option as FieldSchema | null)?.["x-svc-table"];
    if (typeof table === "string") return table;
  }
  return null;
}

/** Which control edits values of `schema`. */
export function controlOf(schema: FieldSchema): FieldControl {
  if (schema.type === "string") return "string";
  if (schema.type === "number" || schema.type === "integer") return "number";
  if (schema.type === "boolean") return "boolean";
  if (choicesOf(schema) !== null) return "choice";
  return "json";
}

/** The text a stored value shows in its control (`""` for an absent one). */
export function textOfValue(control: FieldControl, value: unknown): string {
  if (value === undefined) return "";
  if (control === "string" && typeof value === "string") return value;
  if (control === "number" && typeof value === "number") return String(value);
  if (control === "boolean" && typeof value === "boolean") return String(value);
  if (control === "choice") return JSON.stringify(value);
  return JSON.stringify(value, null, 2);
}

/**
 * The value typed text stands for, or `undefined` for an empty optional field
 * (the field is left out). A number or JSON that does not parse stays the
 * text, for the server to refuse with the field's path.
 */
export function valueOfText(control: FieldControl, text: string, optional: boolean): unknown {
  if (text.trim() === "" && optional && control !== "string") return undefined;
  if (text === "" && optional) return undefined;
  switch (control) {
    case "string":
      return text;
    case "number": {
      const number = Number(text.trim());
      return text.trim() !== "" && Number.isFinite(number) ? number : text;
    }
    case "boolean":
      return text === "true" ? true : text === "false" ? false : text;
    case "choice":
    case "json":
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
  }
}

/** The fields of a document without its system fields. */
export function ownFields(document: Record<string, unknown>): Record<string, unknown> {
  const { _id, _creationTime, ...own } = document;
  return own;
}

/**
 * The field a validation issue names: `body.channel` → `channel`,
 * `body.tags[2]` → `tags`, `args.limit` → `limit`; `null` for one about the
 * whole value.
 */
export function fieldOfIssue(path: string): string | null {
  const match = /^(?:body|args)(?:\.fields)?\.([A-Za-z_$][\w$]*)/.exec(path);
  return match?.[1] ?? null;
}

/**
 * An issue's path as the operator knows it: inside the document or the
 * arguments, without the request's `body.` / `args.` (so a table's own
 * `body` field reads `body`, never `body.body`).
 *
 * @example issuePath("body.tags[2]") // "tags[2]"
 */
export function issuePath(path: string): string {
  return path.replace(/^(?:body|args)(?:\.fields)?\./, "");
}

/** A value in one short line for a grid cell: strings as they are, anything else as JSON. */
export function cellText(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/**
 * The text of a browse parameter typed for a field: a string field's text as
 * a JSON string, a number's as a number, else the text if it is JSON, else a
 * JSON string. (`general` → `"general"`, `5` on a number field → `5`.)
 */
export function jsonOfTyped(control: FieldControl, text: string): string {
  const value = valueOfText(control, text, false);
  return JSON.stringify(value);
}

/** The inverse of {@link jsonOfTyped}: what to show in the box for a parameter's JSON. */
export function typedOfJson(json: string | undefined): string {
  if (json === undefined || json === "") return "";
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "string" ? value : JSON.stringify(value);
  } catch {
    return json;
  }
}
