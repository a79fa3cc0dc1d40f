import { type NumberParts, partsOf, type StringParts } from "../values/parts.ts";
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

/**
 * The bounds of a string or number validator (`v.string({ maxLength })`,
 * `v.number({ integer: true, min })`), as {@link partsOf} reads them from the
 * JSON Schema the validator publishes: the one place bounds are written
 * down for every consumer, so what codegen records is what the server
 * checks. Keys come in a fixed (sorted) order, so the same validator always
 * prints (and hashes) the same.
 */
function constraintsOf(parts: StringParts | NumberParts): ValidatorConstraints {
  const out: ValidatorConstraints = {};
  if (parts.kind === "number") {
    if (parts.integer) out.integer = true;
    if (parts.maximum !== undefined) out.max = parts.maximum;
    if (parts.minimum !== undefined) out.min = parts.minimum;
    return out;
  }
  if (parts.maxLength !== undefined) out.maxLength = parts.maxLength;
  if (parts.minLength !== undefined) out.minLength = parts.minLength;
  if (parts.pattern !== undefined) out.pattern = parts.pattern;
  return out;
}

/**
 * Describes a `v.*` validator as canonical JSON.
 *
 * @example
 * describeValidator(v.array(v.string())) // { type: "array", item: { type: "string" } }
 */
export function describeValidator(validator: AnyValidator): ValidatorDescription {
  const parts = partsOf(validator);
  switch (parts.kind) {
    case "string":
    case "number":
      return { type: parts.kind, ...constraintsOf(parts) };
    case "boolean":
    case "null":
    case "int64":
    case "bytes":
    case "any":
      return { type: parts.kind };
    case "id":
      return { type: "id", table: parts.table };
    case "literal":
      return typeof parts.value === "bigint"
        ? { type: "literal", value: parts.value.toString(), bigint: true }
        : { type: "literal", value: parts.value };
    case "object":
      return { type: "object", fields: describeFields(parts.shape) };
    case "array":
      return { type: "array", item: describeValidator(parts.item) };
    case "record":
      return {
        type: "record",
        ...(parts.keys ? { keys: describeValidator(parts.keys) } : {}),
        values: describeValidator(parts.values),
      };
    case "union":
      return { type: "union", members: parts.members.map(describeValidator) };
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
