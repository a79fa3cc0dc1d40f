import type { AnyValidator } from "./validator.ts";

/** A string validator: the words it allows (`oneOf`, an `enum`) and its bounds. */
export interface StringParts {
  readonly kind: "string";
  /** The only values allowed, when it is a fixed list of words. */
  readonly words: readonly string[] | undefined;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  /** The pattern's source (JSON Schema `pattern`). */
  readonly pattern: string | undefined;
}

/** A number validator: whether it takes integers only, and its inclusive bounds. */
export interface NumberParts {
  readonly kind: "number";
  readonly integer: boolean;
  readonly minimum: number | undefined;
  readonly maximum: number | undefined;
}

/**
 * What a `v.*` validator is made of, by kind: the fields of an object, the
 * item of an array, the members of a union, the table of an id, a
 * literal's value, the bounds of a string or number.
 */
export type ValidatorParts =
  | StringParts
  | NumberParts
  | { readonly kind: "boolean" | "null" | "int64" | "bytes" | "any" }
  | { readonly kind: "id"; readonly table: string }
  | { readonly kind: "literal"; readonly value: string | number | boolean | bigint }
  | { readonly kind: "object"; readonly shape: Readonly<Record<string, AnyValidator>> }
  | { readonly kind: "array"; readonly item: AnyValidator }
  | {
      readonly kind: "record";
      readonly keys: AnyValidator | undefined;
      readonly values: AnyValidator;
    }
  | { readonly kind: "union"; readonly members: readonly AnyValidator[] };

/** What `createValidator`'s `extra` puts on a validator, as the composites and primitives set it. */
interface Extras {
  readonly shape?: Readonly<Record<string, AnyValidator>>;
  readonly item?: AnyValidator;
  readonly keys?: AnyValidator;
  readonly values?: unknown;
  readonly members?: readonly AnyValidator[];
  readonly value?: string | number | boolean | bigint;
  readonly table?: string;
}

const numberOrUndefined = (value: unknown) => (typeof value === "number" ? value : undefined);

/**
 * The one typed reading of a validator's parts: every consumer (the OpenAPI
 * emitter, the docs' type text, codegen's canonical description, example
 * values) walks validators through this, never through the validator's
 * own fields. Bounds are read from the JSON Schema the validator publishes,
 * the one place they are written down.
 *
 * @example
 * ```ts
 * const parts = partsOf(v.object({ name: v.string() }));
 * if (parts.kind === "object") for (const [key, field] of Object.entries(parts.shape)) walk(key, field);
 * ```
 */
export function partsOf(validator: AnyValidator): ValidatorParts {
  const extras = validator as AnyValidator & Extras;
  switch (validator.kind) {
    case "string": {
      const schema = validator.toJsonSchema();
      return {
        kind: "string",
        words: Array.isArray(schema.enum) ? (schema.enum as string[]) : undefined,
        minLength: numberOrUndefined(schema.minLength),
        maxLength: numberOrUndefined(schema.maxLength),
        pattern: typeof schema.pattern === "string" ? schema.pattern : undefined,
      };
    }
    case "number": {
      const schema = validator.toJsonSchema();
      return {
        kind: "number",
        integer: schema.type === "integer",
        minimum: numberOrUndefined(schema.minimum),
        maximum: numberOrUndefined(schema.maximum),
      };
    }
    case "id":
      return { kind: "id", table: String(extras.table) };
    case "literal":
      return { kind: "literal", value: extras.value as string | number | boolean | bigint };
    case "object":
      return { kind: "object", shape: extras.shape ?? {} };
    case "array":
      return { kind: "array", item: extras.item as AnyValidator };
    case "record":
      return { kind: "record", keys: extras.keys, values: extras.values as AnyValidator };
    case "union":
      return { kind: "union", members: extras.members ?? [] };
    default:
      return { kind: validator.kind };
  }
}
