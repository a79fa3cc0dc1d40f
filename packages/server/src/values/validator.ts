import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { ValidationIssue } from "../errors/svc-error.ts";

/** A JSON Schema (draft 2020-12) object, as emitted into the OpenAPI document. */
export type JsonSchema = { [key: string]: unknown };

/** A segment of the path to a rejected value: a field name or an array index. */
export type PathSegment = string | number;

/** A rejected value, with the path as segments (formatted later for messages). */
export interface Issue {
  path: readonly PathSegment[];
  message: string;
}

/** What a validator's check sees: where it is, and where to report problems. */
export interface CheckScope {
  path: readonly PathSegment[];
  issues: Issue[];
}

/**
 * The path of a top-level value: empty and shared, since a path is never
 * changed, only extended (one array less per check of a call's arguments).
 *
 * @example validator.check(args, { path: ROOT_PATH, issues });
 */
export const ROOT_PATH: readonly PathSegment[] = Object.freeze([]);

/**
 * The scope of one field or element inside `scope`: its path is made only
 * when something asks for it (an issue is reported there, a union compares
 * depths), not for every value checked, which is most of what a valid call's
 * arguments cost to check.
 *
 * @example
 * ```ts
 * validator.check(value[key], new FieldScope(scope, key)); // path [...scope.path, key] if reported
 * ```
 */
export class FieldScope implements CheckScope {
  readonly issues: Issue[];
  readonly #parent: CheckScope;
  readonly #segment: PathSegment;
  #path: readonly PathSegment[] | undefined;

  constructor(parent: CheckScope, segment: PathSegment) {
    this.issues = parent.issues;
    this.#parent = parent;
    this.#segment = segment;
  }

  get path(): readonly PathSegment[] {
    this.#path ??= [...this.#parent.path, this.#segment];
    return this.#path;
  }
}

/** The kinds of `v.*` validators. */
export type ValidatorKind =
  | "string"
  | "number"
  | "boolean"
  | "null"
  | "int64"
  | "bytes"
  | "id"
  | "literal"
  | "object"
  | "array"
  | "record"
  | "union"
  | "any";

/**
 * A `v.*` validator: a TypeScript type, a runtime check, a JSON Schema and the
 * Standard Schema interface, from one definition. Immutable: `.describe()`
 * returns a new validator.
 *
 * `Optional` marks a field that may be absent inside `v.object` / `.input`.
 */
export interface Validator<T = unknown, Optional extends boolean = boolean> {
  readonly kind: ValidatorKind;
  readonly isOptional: Optional;
  /** Human description, carried into the JSON Schema. */
  readonly description: string | undefined;
  /** Validates `value`, appending issues to `scope.issues`. Never throws. */
  check(value: unknown, scope: CheckScope): void;
  /** JSON Schema 2020-12 of the value in the JSON transport encoding. */
  toJsonSchema(): JsonSchema;
  /** A copy with a description for generated docs. */
  describe(text: string): Validator<T, Optional>;
  readonly "~standard": StandardSchemaV1.Props<T, T>;
  /** Type-only marker; never set at run time. */
  readonly __type?: T;
}

/** The TypeScript type a validator accepts. */
export type Infer<V> = V extends Validator<infer T, boolean> ? T : never;

/** Any validator, for places that only need the runtime surface. */
export type AnyValidator = Validator<unknown, boolean>;

interface ValidatorSpec {
  kind: ValidatorKind;
  check: (value: unknown, scope: CheckScope) => void;
  schema: () => JsonSchema;
  /** Sub-validators, exposed for introspection (object shape, array item, ...). */
  extra?: Record<string, unknown>;
}

/**
 * Builds a validator from its check and schema. Everything in `v.*` goes
 * through here, so the Standard Schema glue and `describe` exist once.
 */
export function createValidator<T, Optional extends boolean = false>(
  spec: ValidatorSpec,
  isOptional: Optional = false as Optional,
  description?: string,
): Validator<T, Optional> {
  const validator: Validator<T, Optional> = {
    ...spec.extra,
    kind: spec.kind,
    isOptional,
    description,
    check: spec.check,
    toJsonSchema() {
      const schema = spec.schema();
      return description === undefined ? schema : { ...schema, description };
    },
    describe(text: string) {
      return createValidator<T, Optional>(spec, isOptional, text);
    },
    "~standard": {
      version: 1,
      vendor: "svc",
      validate(value: unknown): StandardSchemaV1.Result<T> {
        const issues: Issue[] = [];
        spec.check(value, { path: [], issues });
        if (issues.length === 0) return { value: value as T };
        return { issues: issues.map((issue) => ({ message: issue.message, path: issue.path })) };
      },
    },
  };
  return Object.freeze(validator);
}

/** Formats a path as `root.items[2].name`. */
export function formatPath(root: string, path: readonly PathSegment[]): string {
  let out = root;
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** Converts internal issues to the public `{ path, message }` shape under `root`. */
export function toValidationIssues(root: string, issues: readonly Issue[]): ValidationIssue[] {
  return issues.map((issue) => ({ path: formatPath(root, issue.path), message: issue.message }));
}

/** The name of a value's type as it appears in messages: `got number`. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof Uint8Array) return "bytes";
  return typeof value;
}

/** Records an issue at `scope.path` (plus an optional extra segment). */
export function report(scope: CheckScope, message: string, segment?: PathSegment): void {
  scope.issues.push({
    path: segment === undefined ? scope.path : [...scope.path, segment],
    message,
  });
}
