import { codePointLength } from "./code-points.ts";
import { type CheckScope, type JsonSchema, report } from "./validator.ts";

/**
 * Options of `v.string(options)`. Each one is checked on every call and
 * emitted as the JSON Schema keyword of the same meaning, so the OpenAPI
 * document says exactly what the server accepts.
 *
 * @example
 * ```ts
 * const slug: StringOptions = { minLength: 1, maxLength: 64, pattern: /^[a-z0-9-]+$/ };
 * ```
 */
export interface StringOptions {
  /** Fewest characters, counted in Unicode code points (an emoji is one, as JSON Schema counts). */
  minLength?: number;
  /** Most characters, counted in Unicode code points. */
  maxLength?: number;
  /**
   * An ECMA-262 regular expression the text must contain a match of (anchor
   * it with `^…$` to match the whole text), as JSON Schema's `pattern`. It is
   * tested with Unicode semantics (the `u` flag); a `RegExp` may carry no
   * other flag, since a JSON Schema pattern has none. Keep a `maxLength`
   * beside it: the pattern runs only on text within the length bounds, but
   * on every such call, over text the caller chose.
   */
  pattern?: RegExp | string;
}

/**
 * Options of `v.number(options)`, checked on every call and emitted as JSON
 * Schema (`type: "integer"`, `minimum`, `maximum`).
 *
 * @example
 * ```ts
 * const percent: NumberOptions = { integer: true, min: 0, max: 100 };
 * ```
 */
export interface NumberOptions {
  /** Smallest value allowed (inclusive). */
  min?: number;
  /** Largest value allowed (inclusive). */
  max?: number;
  /** Whole numbers only (`1.0` is one, as in JSON Schema's `integer`). */
  integer?: boolean;
}

/** {@link StringOptions} checked once, at definition. */
export interface StringBounds {
  minLength: number | undefined;
  maxLength: number | undefined;
  /** The pattern as written (what JSON Schema gets) and compiled with the `u` flag. */
  pattern: { source: string; regex: RegExp } | undefined;
}

/** {@link NumberOptions} checked once, at definition. */
export interface NumberBounds {
  min: number | undefined;
  max: number | undefined;
  integer: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function lengthOption(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw new TypeError(`svc: v.string: ${name} must be a whole number ≥ 0, got ${String(value)}`);
  return value as number;
}

function patternOption(value: unknown): StringBounds["pattern"] {
  if (value === undefined) return undefined;
  if (value instanceof RegExp && value.flags !== "" && value.flags !== "u")
    throw new TypeError(
      `svc: v.string: pattern /${value.source}/${value.flags} has flags a JSON Schema pattern cannot carry; only u is allowed`,
    );
  const source = value instanceof RegExp ? value.source : value;
  if (typeof source !== "string")
    throw new TypeError("svc: v.string: pattern must be a RegExp or a string");
  try {
    return { source, regex: new RegExp(source, "u") };
  } catch (error) {
    throw new TypeError(
      `svc: v.string: pattern ${JSON.stringify(source)} is no valid regular expression with Unicode semantics (${(error as Error).message})`,
    );
  }
}

/**
 * Checks `v.string`'s options once, when the validator is defined: a bad
 * bound is a programming mistake that must fail at start, not per call.
 *
 * @example stringBounds({ maxLength: 280 }) // { minLength: undefined, maxLength: 280, pattern: undefined }
 */
export function stringBounds(options: StringOptions): StringBounds {
  if (!isObject(options as unknown)) throw new TypeError("svc: v.string takes an options object");
  const minLength = lengthOption("minLength", options.minLength);
  const maxLength = lengthOption("maxLength", options.maxLength);
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength)
    throw new TypeError(`svc: v.string: minLength ${minLength} is above maxLength ${maxLength}`);
  return { minLength, maxLength, pattern: patternOption(options.pattern) };
}

/**
 * Checks `v.number`'s options once, when the validator is defined.
 *
 * @example numberBounds({ integer: true, min: 1 }) // { min: 1, max: undefined, integer: true }
 */
export function numberBounds(options: NumberOptions): NumberBounds {
  if (!isObject(options as unknown)) throw new TypeError("svc: v.number takes an options object");
  const { min, max, integer } = options;
  for (const [name, bound] of [
    ["min", min],
    ["max", max],
  ] as const) {
    if (bound !== undefined && !(typeof bound === "number" && Number.isFinite(bound)))
      throw new TypeError(`svc: v.number: ${name} must be a finite number, got ${String(bound)}`);
  }
  if (min !== undefined && max !== undefined && min > max)
    throw new TypeError(`svc: v.number: min ${min} is above max ${max}`);
  if (integer !== undefined && typeof integer !== "boolean")
    throw new TypeError("svc: v.number: integer must be true or false");
  return { min, max, integer: integer === true };
}

/**
 * Reports each bound a string breaks (length in code points, pattern). The
 * pattern runs only on text within the length bounds: a catastrophic pattern
 * over a 28-character input took seconds, and `maxLength` is what the docs
 * give as the protection.
 *
 * @example checkString(bounds, "a long text", { path: ["args", "name"], issues })
 */
export function checkString(bounds: StringBounds, value: string, scope: CheckScope): void {
  const { minLength, maxLength, pattern } = bounds;
  if (minLength !== undefined || maxLength !== undefined) {
    // Counts no further than the larger bound: a megabyte string costs what the bound costs.
    const length = codePointLength(value, maxLength ?? minLength);
    if (minLength !== undefined && length < minLength) {
      report(scope, `expected at least ${minLength} characters, got ${length}`);
      return;
    }
    if (maxLength !== undefined && length > maxLength) {
      report(scope, `expected at most ${maxLength} characters`);
      return;
    }
  }
  if (pattern !== undefined && !pattern.regex.test(value))
    report(scope, `expected text matching /${pattern.source}/`);
}

/**
 * Reports each bound a finite number breaks.
 *
 * @example checkNumber(bounds, 1.5, { path: ["args", "limit"], issues })
 */
export function checkNumber(bounds: NumberBounds, value: number, scope: CheckScope): void {
  if (bounds.integer && !Number.isInteger(value)) report(scope, "expected an integer");
  if (bounds.min !== undefined && value < bounds.min)
    report(scope, `expected at least ${bounds.min}`);
  if (bounds.max !== undefined && value > bounds.max)
    report(scope, `expected at most ${bounds.max}`);
}

/**
 * The JSON Schema keywords of a string's bounds.
 *
 * @example stringSchema(stringBounds({ maxLength: 280 })) // { maxLength: 280 }
 */
export function stringSchema(bounds: StringBounds): JsonSchema {
  return {
    ...(bounds.minLength !== undefined ? { minLength: bounds.minLength } : {}),
    ...(bounds.maxLength !== undefined ? { maxLength: bounds.maxLength } : {}),
    ...(bounds.pattern !== undefined ? { pattern: bounds.pattern.source } : {}),
  };
}

/**
 * The JSON Schema of a bounded number.
 *
 * @example numberSchema(numberBounds({ integer: true, min: 0 })) // { type: "integer", minimum: 0 }
 */
export function numberSchema(bounds: NumberBounds): JsonSchema {
  return {
    type: bounds.integer ? "integer" : "number",
    ...(bounds.min !== undefined ? { minimum: bounds.min } : {}),
    ...(bounds.max !== undefined ? { maximum: bounds.max } : {}),
  };
}
