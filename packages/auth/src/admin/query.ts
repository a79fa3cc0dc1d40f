import { Issues } from "./http.ts";

/** Turns one query value into a typed one, or returns an error message. */
export type QueryParser<T> = (raw: string) => { value: T } | { error: string };

type Parsed<S extends Record<string, QueryParser<unknown>>> = {
  [K in keyof S]?: S[K] extends QueryParser<infer T> ? T : never;
};

/**
 * Page size of every admin list when `limit` is absent (largest: 100).
 *
 * @example
 * ```ts
 * const limit = query.limit ?? DEFAULT_LIMIT;
 * ```
 */
export const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

/**
 * Reads the query string against an allow-list: every parameter must be
 * known and given at most once, or the request fails as a whole with
 * `VALIDATION_FAILED` (paths `query.<name>`). Sorting, filtering and search
 * fields are therefore exactly the ones a route declares.
 *
 * @example
 * ```ts
 * const query = parseQuery(url, { limit: limitParser, search: text(200) });
 * ```
 */
export function parseQuery<S extends Record<string, QueryParser<unknown>>>(
  url: URL,
  spec: S,
): Parsed<S> {
  const issues = new Issues("query");
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const [name, raw] of url.searchParams) {
    const parser = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (parser === undefined) {
      const known = Object.keys(spec);
      issues.add(
        name,
        known.length === 0
          ? "this route takes no query parameters"
          : `unknown parameter (known: ${known.join(", ")})`,
      );
      continue;
    }
    if (seen.has(name)) {
      issues.add(name, "given more than once");
      continue;
    }
    seen.add(name);
    const parsed = parser(raw);
    if ("error" in parsed) issues.add(name, parsed.error);
    else out[name] = parsed.value;
  }
  issues.throwIfAny();
  return out as Parsed<S>;
}

/**
 * An integer from `min` to `max`, written in digits only.
 *
 * @example
 * ```ts
 * parseQuery(url, { days: integerIn(1, 90) });
 * ```
 */
export function integerIn(min: number, max: number): QueryParser<number> {
  return (raw) => {
    const value = Number(raw);
    return /^\d+$/.test(raw) && value >= min && value <= max
      ? { value }
      : { error: `must be an integer from ${min} to ${max}` };
  };
}

/**
 * A page size: an integer from 1 to {@link MAX_LIMIT}.
 *
 * @example
 * ```ts
 * parseQuery(url, { limit: limitParser });
 * ```
 */
export const limitParser: QueryParser<number> = integerIn(1, MAX_LIMIT);

/**
 * Free text up to `max` characters, trimmed; empty means absent.
 *
 * @example
 * ```ts
 * parseQuery(url, { search: text(200) });
 * ```
 */
export function text(max: number): QueryParser<string | undefined> {
  return (raw) => {
    const value = raw.trim();
    if (value.length > max) return { error: `must be at most ${max} characters` };
    return { value: value === "" ? undefined : value };
  };
}

/**
 * One of a fixed set of words: how sorts and filters stay allow-listed.
 *
 * @example
 * ```ts
 * parseQuery(url, { order: oneOf(["asc", "desc"] as const) });
 * ```
 */
export function oneOf<const T extends string>(values: readonly T[]): QueryParser<T> {
  return (raw) => {
    const found = values.find((value) => value === raw);
    return found === undefined
      ? { error: `must be one of ${values.join(", ")}` }
      : { value: found };
  };
}

/**
 * `true` or `false`, nothing else (`1`, `yes` are refused).
 *
 * @example
 * ```ts
 * parseQuery(url, { banned: booleanParser });
 * ```
 */
export const booleanParser: QueryParser<boolean> = (raw) =>
  raw === "true"
    ? { value: true }
    : raw === "false"
      ? { value: false }
      : { error: "must be true or false" };
