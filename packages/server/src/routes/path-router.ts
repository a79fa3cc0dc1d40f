import { parsePattern, type Segment } from "./contract/pattern.ts";

/** What {@link PathRouter.match} finds for a method and a path. */
export type PathMatch<T, Method extends string = string> =
  | { kind: "found"; value: T; params: Record<string, string> }
  /** The path is routed, not for this method: answer 405 with `allow`. */
  | { kind: "method"; allow: Method[] }
  | { kind: "none" };

interface Entry<T, Method extends string> {
  method: Method;
  pattern: string;
  segments: Segment[];
  value: T;
}

function shapeOf(segments: readonly Segment[]): string {
  return segments
    .map((segment) => ("literal" in segment ? segment.literal : "rest" in segment ? "*" : ":"))
    .join("/");
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function matchSegments(
  segments: readonly Segment[],
  parts: readonly string[],
): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    if ("rest" in segment) {
      const rest = decode(parts.slice(index).join("/"));
      if (rest === undefined) return undefined;
      params["*"] = rest;
      return params;
    }
    const part = parts[index];
    if (part === undefined) return undefined;
    if ("literal" in segment) {
      if (part !== segment.literal) return undefined;
      continue;
    }
    const value = decode(part);
    if (value === undefined || value === "") return undefined;
    params[segment.param] = value;
  }
  return parts.length === segments.length ? params : undefined;
}

/**
 * svc's one path router: the HTTP actions of `svc/http.ts` and every
 * declared route group (the admin API) match through it, so they agree on
 * what a pattern means. Patterns are `/`-separated: literal segments,
 * `:name` parameters (percent-decoded; an empty segment never matches) and
 * a final `*` for the rest of the path (`params["*"]`). Literals compare
 * with the raw segment. The first route in declaration order whose pattern
 * and method match wins; a path routed only for other methods is a `method`
 * match listing them (for `405` + `Allow`). The same method and pattern
 * shape twice (`/a/:id`, `/a/:key`) throws when added.
 *
 * @example
 * ```ts
 * const router = new PathRouter<string>();
 * router.add("GET", "/users/:id", "get user");
 * router.match("GET", "/users/u1"); // { kind: "found", value: "get user", params: { id: "u1" } }
 * router.match("POST", "/users/u1"); // { kind: "method", allow: ["GET"] }
 * ```
 */
export class PathRouter<T, Method extends string = string> {
  readonly #entries: Entry<T, Method>[] = [];

  /** Adds a route; throws for an invalid pattern or a route added twice. */
  add(method: Method, pattern: string, value: T): void {
    const segments = parsePattern(pattern);
    const shape = shapeOf(segments);
    if (this.#entries.some((entry) => entry.method === method && shapeOf(entry.segments) === shape))
      throw new Error(`svc: ${method} ${pattern} is routed twice`);
    this.#entries.push({ method, pattern, segments, value });
  }

  /**
   * Finds the route for a method and a raw (percent-encoded) path, with or
   * without its leading `/`. `include` hides routes that do not exist right
   * now (a surface whose plugin is off).
   */
  match(method: string, path: string, include?: (value: T) => boolean): PathMatch<T, Method> {
    const trimmed = path.startsWith("/") ? path.slice(1) : path;
    const parts = trimmed === "" ? [] : trimmed.split("/");
    const allow: Method[] = [];
    for (const entry of this.#entries) {
      if (include !== undefined && !include(entry.value)) continue;
      const params = matchSegments(entry.segments, parts);
      if (params === undefined) continue;
      if (entry.method === method) return { kind: "found", value: entry.value, params };
      if (!allow.includes(entry.method)) allow.push(entry.method);
    }
    return allow.length > 0 ? { kind: "method", allow } : { kind: "none" };
  }

  /** Every route, in the order added. */
  get routes(): readonly { method: Method; pattern: string; value: T }[] {
    return this.#entries.map(({ method, pattern, value }) => ({ method, pattern, value }));
  }
}
