import type {
  FieldDescription,
  ValidatorConstraints,
  ValidatorDescription,
} from "./describe-validator.ts";

type Literal = Extract<ValidatorDescription, { type: "literal" }>;

function stringConstraintsHold(inner: ValidatorConstraints, outer: ValidatorConstraints): boolean {
  if ((outer.minLength ?? 0) > (inner.minLength ?? 0)) return false;
  if (
    outer.maxLength !== undefined &&
    (inner.maxLength === undefined || inner.maxLength > outer.maxLength)
  )
    return false;
  return outer.pattern === undefined || outer.pattern === inner.pattern;
}

function numberConstraintsHold(inner: ValidatorConstraints, outer: ValidatorConstraints): boolean {
  if (outer.min !== undefined && (inner.min === undefined || inner.min < outer.min)) return false;
  if (outer.max !== undefined && (inner.max === undefined || inner.max > outer.max)) return false;
  return outer.integer === undefined || inner.integer === true;
}

/** Whether `outer` accepts the literal's one value. */
function acceptsLiteral(outer: ValidatorDescription, literal: Literal): boolean {
  const { value } = literal;
  switch (outer.type) {
    case "literal":
      return outer.value === value && outer.bigint === literal.bigint;
    case "int64":
      return literal.bigint === true;
    case "boolean":
      return typeof value === "boolean";
    case "string":
      if (typeof value !== "string" || literal.bigint) return false;
      // Lengths count Unicode code points, as v.string's bounds (and JSON Schema) do.
      if ([...value].length < (outer.minLength ?? 0)) return false;
      if (outer.maxLength !== undefined && [...value].length > outer.maxLength) return false;
      return outer.pattern === undefined || new RegExp(outer.pattern, "u").test(value);
    case "number":
      if (typeof value !== "number") return false;
      if (outer.min !== undefined && value < outer.min) return false;
      if (outer.max !== undefined && value > outer.max) return false;
      return outer.integer === undefined || Number.isInteger(value);
    default:
      return false;
  }
}

/**
 * Whether every field set `inner` accepts is accepted by `outer` (objects
 * reject unknown fields, so a field `outer` lacks is a narrowing).
 */
export function fieldsWithin(
  inner: Readonly<Record<string, FieldDescription>>,
  outer: Readonly<Record<string, FieldDescription>>,
): boolean {
  for (const name of Object.keys(inner)) if (!Object.hasOwn(outer, name)) return false;
  for (const [name, field] of Object.entries(outer)) {
    const old = Object.hasOwn(inner, name) ? inner[name] : undefined;
    if (old === undefined) {
      if (!field.optional) return false;
      continue;
    }
    if (old.optional && !field.optional) return false;
    if (!within(old, field)) return false;
  }
  return true;
}

/**
 * Whether every value `inner` accepts is also accepted by `outer`: the
 * question "can a change from `inner` to `outer` invalidate a stored value?".
 * Conservative: when unsure it answers false (a union is within another when
 * each member is within one of its members), so a change is never called
 * compatible when it is not.
 *
 * @example within({ type: "id", table: "users" }, { type: "string" }) // true
 */
export function within(inner: ValidatorDescription, outer: ValidatorDescription): boolean {
  if (outer.type === "any") return true;
  if (inner.type === "any") return false;
  if (inner.type === "union") return inner.members.every((member) => within(member, outer));
  if (inner.type === "literal") {
    if (outer.type === "union") return outer.members.some((member) => within(inner, member));
    return acceptsLiteral(outer, inner);
  }
  if (outer.type === "union") return outer.members.some((member) => within(inner, member));
  switch (inner.type) {
    case "string":
      return outer.type === "string" && stringConstraintsHold(inner, outer);
    case "number":
      return outer.type === "number" && numberConstraintsHold(inner, outer);
    case "id":
      return (
        (outer.type === "id" && outer.table === inner.table) ||
        (outer.type === "string" &&
          outer.minLength === undefined &&
          outer.maxLength === undefined &&
          outer.pattern === undefined)
      );
    case "boolean":
    case "null":
    case "int64":
    case "bytes":
      return outer.type === inner.type;
    case "object":
      return outer.type === "object" && fieldsWithin(inner.fields, outer.fields);
    case "array":
      return outer.type === "array" && within(inner.item, outer.item);
    case "record":
      return (
        outer.type === "record" &&
        within(inner.values, outer.values) &&
        (outer.keys === undefined || (inner.keys !== undefined && within(inner.keys, outer.keys)))
      );
  }
}
