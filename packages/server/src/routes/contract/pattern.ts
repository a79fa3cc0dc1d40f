/**
 * Route patterns: `/`-separated segments, each a literal, a `:name`
 * parameter, or a final `*` for the rest of the path. One parser for the
 * router, the client and the OpenAPI document, so they read a pattern alike.
 */

/**
 * The names of the `:name` segments of a route pattern (and `*` for a final
 * rest segment).
 *
 * @example
 * ```ts
 * type Names = ParamNames<"users/:id/sessions/:sessionId">; // "id" | "sessionId"
 * ```
 */
export type ParamNames<Pattern extends string> = Pattern extends `${infer Head}/${infer Rest}`
  ? ParamNames<Head> | ParamNames<Rest>
  : Pattern extends `:${infer Name}`
    ? Name
    : Pattern extends "*"
      ? "*"
      : never;

/**
 * The path parameters of a route pattern, each a (percent-decoded) string:
 * the type the router guarantees, so a handler reads `params.id` without `!`.
 *
 * @example
 * ```ts
 * type P = ParamsOf<"users/:id">; // { readonly id: string }
 * ```
 */
export type ParamsOf<Pattern extends string> = { readonly [Name in ParamNames<Pattern>]: string };

/** One segment of a parsed pattern. */
export type Segment = { literal: string } | { param: string } | { rest: true };

const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)$/;
const LITERAL = /^[A-Za-z0-9._~!$&'()+,;=@%-]+$/;

/**
 * Parses a pattern (`/users/:id`, or relative: `users/:id`) into segments.
 * A parameter named twice, a `*` before the end or a segment with characters
 * a URL path cannot hold throws, naming the pattern.
 *
 * @example
 * ```ts
 * parsePattern("/files/:id/*"); // [{ literal: "files" }, { param: "id" }, { rest: true }]
 * ```
 */
export function parsePattern(pattern: string): Segment[] {
  const trimmed = pattern.startsWith("/") ? pattern.slice(1) : pattern;
  const parts = trimmed === "" ? [] : trimmed.split("/");
  const names = new Set<string>();
  return parts.map((part, index): Segment => {
    if (part === "*") {
      if (index !== parts.length - 1)
        throw new Error(`svc: in route ${pattern}, "*" must be the last segment`);
      return { rest: true };
    }
    const param = PARAM.exec(part);
    if (param) {
      const name = param[1]!;
      if (names.has(name))
        throw new Error(`svc: route ${pattern} names the parameter :${name} twice`);
      names.add(name);
      return { param: name };
    }
    if (!LITERAL.test(part))
      throw new Error(`svc: route ${pattern} has an invalid segment ${JSON.stringify(part)}`);
    return { literal: part };
  });
}

/**
 * The names of a pattern's parameters, in order (`*` for a rest segment).
 *
 * @example
 * ```ts
 * paramNamesOf("users/:id/sessions/:sessionId"); // ["id", "sessionId"]
 * ```
 */
export function paramNamesOf(pattern: string): string[] {
  return parsePattern(pattern).flatMap((segment) =>
    "param" in segment ? [segment.param] : "rest" in segment ? ["*"] : [],
  );
}

/**
 * Fills a pattern's parameters, percent-encoding each, so an id can never
 * change the route (`a/b` stays one segment).
 *
 * @example
 * ```ts
 * fillPattern("users/:id/ban", { id: "u/1" }); // "users/u%2F1/ban"
 * ```
 */
export function fillPattern(pattern: string, params: Readonly<Record<string, string>>): string {
  const leading = pattern.startsWith("/") ? "/" : "";
  const filled = parsePattern(pattern).map((segment) => {
    if ("literal" in segment) return segment.literal;
    const name = "param" in segment ? segment.param : "*";
    const value = params[name];
    if (value === undefined) throw new Error(`svc: route ${pattern} needs the parameter ${name}`);
    return "rest" in segment
      ? value.split("/").map(encodeURIComponent).join("/")
      : encodeURIComponent(value);
  });
  return leading + filled.join("/");
}

/**
 * The OpenAPI form of a pattern: `users/:id` → `users/{id}`, a final `*` → `{path}`.
 *
 * @example
 * ```ts
 * openApiPathOf("/_svc/admin/auth/users/:id"); // "/_svc/admin/auth/users/{id}"
 * ```
 */
export function openApiPathOf(pattern: string): string {
  return pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}").replace(/\*$/, "{path}");
}
