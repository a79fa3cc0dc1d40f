import type { AnyValidator } from "../values/validator.ts";

/** Constraints a validator may carry beside its type (strings: lengths, pattern; numbers: range, integer). */
export interface ValidatorConstraints {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  min?: number;
  max?: number;
  integer?: true;
}

/**
 * A validator as plain, canonical JSON: what codegen records in
 * `svc/_generated/schema.json` and compares between runs, and what the schema
 * version hashes. Descriptions (`.describe()`) are left out: they change no
 * document's validity.
 */
export type ValidatorDescription =
  | ({ type: "string" | "number" } & ValidatorConstraints)
  | { type: "boolean" | "null" | "int64" | "bytes" | "any" }
  | { type: "id"; table: string }
  | { type: "literal"; value: string | number | boolean; bigint?: true }
  | { type: "object"; fields: Record<string, FieldDescription> }
  | { type: "array"; item: ValidatorDescription }
  | { type: "record"; keys?: ValidatorDescription; values: ValidatorDescription }
  | { type: "union"; members: ValidatorDescription[] };

/** A field of an object or table: its validator, and whether it may be absent. */
export type FieldDescription = ValidatorDescription & { optional?: true };

/** JSON Schema keyword → constraint, in the (sorted) order descriptions list them. */
const KEYWORDS = [
  ["maximum", "max"],
  ["maxLength", "maxLength"],
  ["minimum", "min"],
  ["minLength", "minLength"],
  ["pattern", "pattern"],
] as const;

/**
 * The bounds of a string or number validator (`v.string({ maxLength })`,
 * `v.number({ integer: true, min })`), read from the JSON Schema it publishes:
 * the one place bounds are written down for every consumer, so what codegen
 * records is what the server checks. Keys come in a fixed order, so the same
 * validator always prints (and hashes) the same.
 */
function constraintsOf(validator: AnyValidator): ValidatorConstraints {
  const schema = validator.toJsonSchema();
  const out: Record<string, unknown> = {};
  if (schema.type === "integer") out.integer = true;
  for (const [keyword, name] of KEYWORDS) {
    if (schema[keyword] !== undefined) out[name] = schema[keyword];
  }
  return out as ValidatorConstraints;
}

/**
 * Describes a `v.*` validator as canonical JSON.
 *
 * @example
 * describeValidator(v.array(v.string())) // { type: "array", item: { type: "string" } }
 */
export function describeValidator(validator: AnyValidator): ValidatorDescription {
  const parts = validator as unknown as {
    shape?: Record<string, AnyValidator>;
    item?: AnyValidator;
    keys?: AnyValidator;
    values?: AnyValidator;
    members?: readonly AnyValidator[];
    value?: string | number | boolean | bigint;
    table?: string;
  };
  switch (validator.kind) {
    case "string":
    case "number":
      return { type: validator.kind, ...constraintsOf(validator) };
    case "boolean":
    case "null":
    case "int64":
    case "bytes":
    case "any":
      return { type: validator.kind };
    case "id":
      return { type: "id", table: String(parts.table) };
    case "literal":
      return typeof parts.value === "bigint"
        ? { type: "literal", value: parts.value.toString(), bigint: true }
        : { type: "literal", value: parts.value as string | number | boolean };
    case "object":
      return { type: "object", fields: describeFields(parts.shape ?? {}) };
    case "array":
      return { type: "array", item: describeValidator(parts.item as AnyValidator) };
    case "record":
      return {
        type: "record",
        ...(parts.keys ? { keys: describeValidator(parts.keys) } : {}),
        values: describeValidator(parts.values as AnyValidator),
      };
    case "union":
      return { type: "union", members: (parts.members ?? []).map(describeValidator) };
  }
}

/** Describes the fields of an object shape (or a table), sorted by name. */
export function describeFields(
  shape: Readonly<Record<string, AnyValidator>>,
): Record<string, FieldDescription> {
  const out: Record<string, FieldDescription> = {};
  for (const name of Object.keys(shape).sort()) {
    const validator = shape[name] as AnyValidator;
    const described = describeValidator(validator);
    out[name] = validator.isOptional ? { ...described, optional: true } : described;
  }
  return out;
}
