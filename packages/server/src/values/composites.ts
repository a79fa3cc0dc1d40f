import {
  type AnyValidator,
  createValidator,
  describeType,
  FieldScope,
  type Infer,
  type Issue,
  type JsonSchema,
  report,
  type Validator,
} from "./validator.ts";

/** A record of field validators, as given to `v.object` and `.input`. */
export type Shape = Record<string, AnyValidator>;

type OptionalKeys<S extends Shape> = {
  [K in keyof S]: S[K] extends Validator<unknown, true> ? K : never;
}[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The object type a shape describes; optional validators become optional keys. */
export type ObjectType<S extends Shape> = Simplify<
  { [K in RequiredKeys<S>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> }
>;

/** An object validator; `shape` is kept for introspection (OpenAPI, REST query params). */
export type ObjectValidator<S extends Shape> = Validator<ObjectType<S>, false> & {
  readonly shape: S;
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A plain object with exactly these fields. Unknown fields are rejected, so a
 * typo in a client never passes silently.
 */
export function object<S extends Shape>(shape: S): ObjectValidator<S> {
  const entries = Object.entries(shape);
  return createValidator<ObjectType<S>>({
    kind: "object",
    check(value, scope) {
      if (!isPlainObject(value)) {
        report(scope, `expected object, got ${describeType(value)}`);
        return;
      }
      // Index loops and `for…in`: no iterator, key list or path is made for a valid object.
      for (let i = 0; i < entries.length; i++) {
        const [key, validator] = entries[i]!;
        const field = Object.hasOwn(value, key) ? value[key] : undefined;
        if (field === undefined) {
          if (!validator.isOptional) report(scope, "required field is missing", key);
          continue;
        }
        validator.check(field, new FieldScope(scope, key));
      }
      for (const key in value) {
        if (Object.hasOwn(value, key) && !Object.hasOwn(shape, key))
          report(scope, "unexpected field", key);
      }
    },
    schema: (): JsonSchema => {
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [key, validator] of entries) {
        properties[key] = validator.toJsonSchema();
        if (!validator.isOptional) required.push(key);
      }
      return {
        type: "object",
        properties,
        ...(required.length > 0 ? { required } : {}),
        additionalProperties: false,
      };
    },
    extra: { shape },
  }) as ObjectValidator<S>;
}

/** An array whose every element matches `item`. */
export function array<V extends AnyValidator>(item: V): Validator<Infer<V>[], false> {
  return createValidator({
    kind: "array",
    check(value, scope) {
      if (!Array.isArray(value)) {
        report(scope, `expected array, got ${describeType(value)}`);
        return;
      }
      value.forEach((element, index) => {
        item.check(element, new FieldScope(scope, index));
      });
    },
    schema: () => ({ type: "array", items: item.toJsonSchema() }),
    extra: { item },
  });
}

/**
 * An object used as a map: any string keys (or keys matching `keys`), each
 * value matching `values`.
 *
 * @example v.record(v.number()) // { [word: string]: number }
 */
export function record<V extends AnyValidator>(
  values: V,
): Validator<Record<string, Infer<V>>, false>;
export function record<K extends Validator<string, false>, V extends AnyValidator>(
  keys: K,
  values: V,
): Validator<Record<Infer<K>, Infer<V>>, false>;
export function record(
  first: AnyValidator,
  second?: AnyValidator,
): Validator<Record<string, unknown>, false> {
  const keys = second === undefined ? undefined : first;
  const values = second ?? first;
  return createValidator({
    kind: "record",
    check(value, scope) {
      if (!isPlainObject(value)) {
        report(scope, `expected object, got ${describeType(value)}`);
        return;
      }
      for (const [key, field] of Object.entries(value)) {
        const fieldScope = new FieldScope(scope, key);
        keys?.check(key, fieldScope);
        values.check(field, fieldScope);
      }
    },
    schema: () => ({
      type: "object",
      ...(keys ? { propertyNames: keys.toJsonSchema() } : {}),
      additionalProperties: values.toJsonSchema(),
    }),
    extra: { keys, values },
  });
}

/** A value matching at least one member. Reports the closest member's issues. */
export function union<const M extends readonly AnyValidator[]>(
  ...members: M
): Validator<Infer<M[number]>, false> {
  return createValidator({
    kind: "union",
    check(value, scope) {
      let best: Issue[] | undefined;
      for (const member of members) {
        const issues: Issue[] = [];
        member.check(value, { path: scope.path, issues });
        if (issues.length === 0) return;
        if (best === undefined || deepest(issues) > deepest(best)) best = issues;
      }
      if (best === undefined || deepest(best) === scope.path.length) {
        report(
          scope,
          `expected ${members.map((m) => m.kind).join(" | ")}, got ${describeType(value)}`,
        );
      } else {
        scope.issues.push(...best);
      }
    },
    schema: () => ({ anyOf: members.map((member) => member.toJsonSchema()) }),
    extra: { members },
  });
}

function deepest(issues: readonly Issue[]): number {
  return Math.max(...issues.map((issue) => issue.path.length));
}

/** Marks a field of `v.object` / `.input` as optional (it may be absent). */
export function optional<T>(inner: Validator<T, boolean>): Validator<T, true> {
  const optionalValidator: Validator<T, true> = {
    ...inner,
    isOptional: true,
    describe(text: string) {
      return optional(inner.describe(text));
    },
  };
  return Object.freeze(optionalValidator);
}
