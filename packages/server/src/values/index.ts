import { array, object, optional, record, union } from "./composites.ts";
import {
  any,
  boolean,
  bytes,
  id,
  int64,
  literal,
  null as nullValidator,
  number,
  string,
} from "./primitives.ts";

/**
 * The `v.*` validators. Each gives a TypeScript type, a runtime check with
 * error paths, a JSON Schema for the OpenAPI document and the Standard Schema
 * interface.
 *
 * @example
 * ```ts
 * const args = {
 *   body: v.string(),
 *   tags: v.optional(v.array(v.string())),
 *   channel: v.id("channels"),
 * };
 * ```
 */
export const v = {
  string,
  number,
  boolean,
  null: nullValidator,
  int64,
  bytes,
  id,
  literal,
  object,
  array,
  record,
  union,
  optional,
  any,
} as const;

export type { NumberOptions, StringOptions } from "./bounds.ts";
export type { ObjectType, ObjectValidator, Shape } from "./composites.ts";
export type { Id } from "./primitives.ts";
export type { AnyValidator, Infer, JsonSchema, Validator, ValidatorKind } from "./validator.ts";
