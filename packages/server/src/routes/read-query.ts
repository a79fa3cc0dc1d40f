import type { ValidationIssue } from "../errors/svc-error.ts";
import { validationFailed } from "../errors/validation-failed.ts";
import type { ObjectValidator, Shape } from "../values/composites.ts";
import type { AnyValidator, Issue } from "../values/validator.ts";

const NUMBER = /^-?\d+(\.\d+)?$/;

/** A field's text as the value its validator checks: numbers and booleans parsed, text trimmed. */
function fieldValue(
  field: AnyValidator,
  raw: string,
): { value: unknown } | { absent: true } | { error: string } {
  if (field.kind === "boolean") {
    if (raw === "true") return { value: true };
    if (raw === "false") return { value: false };
    return { error: "must be true or false" };
  }
  if (field.kind === "number") return { value: NUMBER.test(raw) ? Number(raw) : raw };
  if ((field as { trimmed?: boolean }).trimmed === true) {
    const trimmed = raw.trim();
    return trimmed === "" ? { absent: true } : { value: trimmed };
  }
  return { value: raw };
}

/**
 * Reads a query string against a route's query declaration (an allow-list):
 * every parameter must be declared and given at most once, numbers and
 * booleans are parsed (`true` / `false` only), `text()` fields are trimmed
 * and an empty one is absent; then each value meets its validator. All
 * problems fail together as one `VALIDATION_FAILED` with paths
 * `query.<name>`, so sorts and filters are exactly the declared ones.
 *
 * @throws {SvcError} `VALIDATION_FAILED`
 * @example
 * ```ts
 * const query = readQuery(url, v.object({ limit: v.optional(integer(1, 100)) })); // { limit?: number }
 * ```
 */
export function readQuery(
  url: URL,
  declaration: ObjectValidator<Shape> | undefined,
): Record<string, unknown> {
  const shape: Shape = declaration?.shape ?? {};
  const issues: ValidationIssue[] = [];
  const add = (name: string, message: string) => issues.push({ path: `query.${name}`, message });
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const [name, raw] of url.searchParams) {
    const field = Object.hasOwn(shape, name) ? shape[name] : undefined;
    if (field === undefined) {
      const known = Object.keys(shape);
      add(
        name,
        known.length === 0
          ? "this route takes no query parameters"
          : `unknown parameter (known: ${known.join(", ")})`,
      );
      continue;
    }
    if (seen.has(name)) {
      add(name, "given more than once");
      continue;
    }
    seen.add(name);
    const read = fieldValue(field, raw);
    if ("error" in read) add(name, read.error);
    else if (!("value" in read)) {
      // An empty text reads as absent: a required one is missing, never undefined in a handler.
      if (!field.isOptional) add(name, "required parameter is empty");
    } else {
      const found: Issue[] = [];
      field.check(read.value, { path: [], issues: found });
      for (const issue of found) add([name, ...issue.path].join("."), issue.message);
      if (found.length === 0) out[name] = read.value;
    }
  }
  for (const [name, field] of Object.entries(shape)) {
    if (!field.isOptional && !Object.hasOwn(out, name) && !seen.has(name))
      add(name, "required parameter is missing");
  }
  if (issues.length > 0) throw validationFailed(issues, "Invalid request: ");
  return out;
}
