/**
 * Validators for the values a query string (and often a body) carries that
 * `v.*` has no words for: bounded integers, bounded and trimmed text, a word
 * from a fixed list. Each is a full `v`-style {@link Validator} (type, check,
 * JSON Schema with its bounds, Standard Schema), so a route's contract states
 * the bound once and the router, the OpenAPI document and the client all
 * read it from there.
 */
import {
  type CheckScope,
  createValidator,
  describeType,
  report,
  type Validator,
} from "../../values/validator.ts";

/**
 * An integer from `min` to `max`. In a query string it is written in digits.
 *
 * @example
 * ```ts
 * const query = v.object({ days: v.optional(integer(1, 90)) });
 * ```
 */
export function integer(min: number, max: number): Validator<number, false> {
  const message = `must be an integer from ${min} to ${max}`;
  return createValidator({
    kind: "number",
    check(value: unknown, scope: CheckScope) {
      if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max)
        report(scope, message);
    },
    schema: () => ({ type: "integer", minimum: min, maximum: max }),
    extra: { minimum: min, maximum: max },
  });
}

/**
 * Free text of at most `max` characters. In a query string it is trimmed
 * and an empty value counts as absent, so `?search=` is no filter.
 *
 * @example
 * ```ts
 * const query = v.object({ search: v.optional(text(200)) });
 * ```
 */
export function text(max: number): Validator<string, false> {
  return createValidator({
    kind: "string",
    check(value: unknown, scope: CheckScope) {
      if (typeof value !== "string") report(scope, `expected string, got ${describeType(value)}`);
      else if (value.length > max) report(scope, `must be at most ${max} characters`);
    },
    schema: () => ({ type: "string", maxLength: max }),
    extra: { maxLength: max, trimmed: true },
  });
}

/**
 * One of a fixed set of words: how sorts, filters and kinds stay
 * allow-listed. Its JSON Schema is an `enum`, so a generated client and the
 * docs list the words.
 *
 * @example
 * ```ts
 * const query = v.object({ order: v.optional(oneOf(["asc", "desc"])) });
 * ```
 */
export function oneOf<const T extends string>(values: readonly T[]): Validator<T, false> {
  const message = `must be one of ${values.join(", ")}`;
  return createValidator({
    kind: "string",
    check(value: unknown, scope: CheckScope) {
      if (typeof value !== "string" || !values.includes(value as T)) report(scope, message);
    },
    schema: () => ({ type: "string", enum: [...values] }),
    extra: { values },
  });
}
