/**
 * Request headers a browser may always send to svc routes: the JSON body,
 * bearer tokens and the shard key. Configured headers are added to these,
 * never put in their place.
 */
export const DEFAULT_CORS_HEADERS: readonly string[] = [
  "content-type",
  "authorization",
  "x-svc-shard-key",
];

/** Options of `httpRouter().cors(...)`. */
export interface CorsOptions {
  /** Allowed origins (`https://app.example.com`), or `"*"` for any (never with `credentials`). */
  origins: readonly string[] | "*";
  /** Request headers allowed on top of {@link DEFAULT_CORS_HEADERS}. */
  allowHeaders?: readonly string[];
  /** Response headers scripts on the other origin may read. */
  exposeHeaders?: readonly string[];
  /** Lets browsers send cookies (`Access-Control-Allow-Credentials`). @default false */
  credentials?: boolean;
  /** How long browsers may cache a preflight. @default 600 */
  maxAgeSeconds?: number;
}

/** A checked, ready-to-apply CORS configuration. */
export interface CorsPolicy {
  /** True when browsers may send cookies to these routes from allowed origins. */
  readonly credentials: boolean;
  /** True when `origin` may call these routes. */
  allows(origin: string): boolean;
  /** Headers of a preflight answer for an allowed origin and the route's methods. */
  preflightHeaders(origin: string, methods: readonly string[]): Headers;
  /** Adds the CORS headers of an actual response for an allowed origin. */
  decorate(response: Response, origin: string): Response;
}

/**
 * Checks CORS options and builds the policy: origins are compared exactly
 * (scheme, host and port; no trailing slash), `Vary: Origin` is always set,
 * and `"*"` with credentials is refused because browsers refuse it too.
 *
 * @example corsPolicy({ origins: ["https://app.example.com"] }).allows("https://evil.test") // false
 */
export function corsPolicy(options: CorsOptions): CorsPolicy {
  const any = options.origins === "*";
  if (!any && (!Array.isArray(options.origins) || options.origins.length === 0)) {
    throw new Error('svc: cors({ origins }) needs a list of origins or "*"');
  }
  if (any && options.credentials) {
    throw new Error(
      'svc: cors({ origins: "*", credentials: true }) is refused by browsers; list the origins',
    );
  }
  const origins = new Set(any ? [] : (options.origins as readonly string[]));
  for (const origin of origins) {
    if (!/^https?:\/\/[^/]+$/.test(origin))
      throw new Error(
        `svc: CORS origin ${JSON.stringify(origin)} must look like https://host[:port]`,
      );
  }
  const allowHeaders = [
    ...new Set([
      ...DEFAULT_CORS_HEADERS,
      ...(options.allowHeaders ?? []).map((h) => h.toLowerCase()),
    ]),
  ].join(", ");
  const expose = (options.exposeHeaders ?? []).join(", ");
  const maxAge = String(options.maxAgeSeconds ?? 600);
  const allowOrigin = (origin: string) => (any ? "*" : origin);
  const common = (headers: Headers, origin: string) => {
    headers.set("access-control-allow-origin", allowOrigin(origin));
    if (options.credentials) headers.set("access-control-allow-credentials", "true");
    headers.append("vary", "Origin");
  };
  return {
    credentials: options.credentials === true,
    allows: (origin) => any || origins.has(origin),
    preflightHeaders(origin, methods) {
      const headers = new Headers();
      common(headers, origin);
      headers.set("access-control-allow-methods", [...methods, "OPTIONS"].join(", "));
      headers.set("access-control-allow-headers", allowHeaders);
      headers.set("access-control-max-age", maxAge);
      return headers;
    },
    decorate(response, origin) {
      const copy = new Response(response.body, response);
      common(copy.headers, origin);
      if (expose !== "") copy.headers.set("access-control-expose-headers", expose);
      return copy;
    },
  };
}
