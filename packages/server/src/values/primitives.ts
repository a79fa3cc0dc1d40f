import {
  checkNumber,
  checkString,
  type NumberOptions,
  numberBounds,
  numberSchema,
  type StringOptions,
  stringBounds,
  stringSchema,
} from "./bounds.ts";
import { isIdOf } from "./ids.ts";
import {
  type CheckScope,
  createValidator,
  describeType,
  type JsonSchema,
  report,
  type Validator,
} from "./validator.ts";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function expectType(expected: string, test: (value: unknown) => boolean) {
  return (value: unknown, scope: CheckScope) => {
    if (!test(value)) report(scope, `expected ${expected}, got ${describeType(value)}`);
  };
}

/**
 * A string; with options, one of bounded length (in Unicode code points, as
 * JSON Schema counts) or matching a pattern. The bounds are checked on every
 * call, whatever the transport, and published in the JSON Schema.
 *
 * @example v.string({ minLength: 1, maxLength: 280 })
 * @example v.string({ pattern: /^[a-z0-9-]+$/ })
 */
export function string(options: StringOptions = {}): Validator<string, false> {
  const bounds = stringBounds(options);
  return createValidator({
    kind: "string",
    check(value, scope) {
      if (typeof value !== "string") report(scope, `expected string, got ${describeType(value)}`);
      else checkString(bounds, value, scope);
    },
    schema: () => ({ type: "string", ...stringSchema(bounds) }),
  });
}

/**
 * A finite float64 (JSON cannot carry NaN or Infinity, so neither is
 * accepted); with options, an integer and/or within `min`…`max` (inclusive).
 *
 * @example v.number({ integer: true, min: 1, max: 100 })
 */
export function number(options: NumberOptions = {}): Validator<number, false> {
  const bounds = numberBounds(options);
  return createValidator({
    kind: "number",
    check(value, scope) {
      if (typeof value !== "number") report(scope, `expected number, got ${describeType(value)}`);
      else if (!Number.isFinite(value)) report(scope, "expected a finite number");
      else checkNumber(bounds, value, scope);
    },
    schema: () => numberSchema(bounds),
  });
}

/** `true` or `false`. */
export function boolean(): Validator<boolean, false> {
  return createValidator({
    kind: "boolean",
    check: expectType("boolean", (value) => typeof value === "boolean"),
    schema: () => ({ type: "boolean" }),
  });
}

/** Exactly `null`. */
function nullValidator(): Validator<null, false> {
  return createValidator({
    kind: "null",
    check: expectType("null", (value) => value === null),
    schema: () => ({ type: "null" }),
  });
}

export { nullValidator as null };

/** JSON Schema of an int64 in the transport encoding (`{"$int64": "123"}`). */
export const INT64_JSON_SCHEMA: JsonSchema = {
  type: "object",
  properties: { $int64: { type: "string", pattern: "^-?[0-9]{1,19}$" } },
  required: ["$int64"],
  additionalProperties: false,
};

/** A signed 64-bit integer as a `bigint`; on the wire `{"$int64": "<decimal>"}`. */
export function int64(): Validator<bigint, false> {
  return createValidator({
    kind: "int64",
    check(value, scope) {
      if (typeof value !== "bigint") report(scope, `expected int64, got ${describeType(value)}`);
      else if (value < INT64_MIN || value > INT64_MAX) report(scope, "int64 out of range");
    },
    schema: () => ({ ...INT64_JSON_SCHEMA, description: "64-bit integer, as a decimal string" }),
  });
}

/** JSON Schema of bytes in the transport encoding (`{"$bytes": "<base64>"}`). */
export const BYTES_JSON_SCHEMA: JsonSchema = {
  type: "object",
  properties: { $bytes: { type: "string", contentEncoding: "base64" } },
  required: ["$bytes"],
  additionalProperties: false,
};

/** Binary data as a `Uint8Array`; on the wire `{"$bytes": "<base64>"}`. */
export function bytes(): Validator<Uint8Array, false> {
  return createValidator({
    kind: "bytes",
    check: expectType("bytes", (value) => value instanceof Uint8Array),
    schema: () => ({ ...BYTES_JSON_SCHEMA }),
  });
}

/** A document id of table `Table`: a string only that table's ids match. */
export type Id<Table extends string> = string & { readonly __table: Table };

/** The id of a document in `table` (e.g. `messages_0a1b...`). */
export function id<Table extends string>(table: Table): Validator<Id<Table>, false> {
  return createValidator({
    kind: "id",
    check(value, scope) {
      if (typeof value !== "string")
        report(scope, `expected id of ${table}, got ${describeType(value)}`);
      else if (!isIdOf(table, value)) report(scope, `expected id of ${table}`);
    },
    schema: () => ({ type: "string", pattern: `^${table}_[0-9a-z]{26}$`, "x-svc-table": table }),
    extra: { table },
  });
}

type LiteralValue = string | number | boolean | bigint;

/** Exactly `value`. */
export function literal<const T extends LiteralValue>(value: T): Validator<T, false> {
  return createValidator({
    kind: "literal",
    check(actual, scope) {
      if (actual !== value)
        report(scope, `expected ${JSON.stringify(String(value))}, got ${describeValue(actual)}`);
    },
    schema: (): JsonSchema =>
      typeof value === "bigint"
        ? { ...INT64_JSON_SCHEMA, properties: { $int64: { const: value.toString() } } }
        : { const: value },
    extra: { value },
  });
}

function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return describeType(value);
}

/** Anything. Use sparingly: it turns off validation and documents nothing. */
export function any(): Validator<unknown, false> {
  return createValidator({ kind: "any", check: () => {}, schema: () => ({}) });
}
