/**
 * On a request: its URL, parsed once. A symbol from the global registry, so
 * `@svc/auth`'s copy of this module and the server's find the same one.
 */
const PARSED: unique symbol = Symbol.for("svc.requestUrl");

type ParsedRequest = Request & { [PARSED]?: URL };

/**
 * The request's URL, parsed on first use and kept on the request: the auth
 * routes' path check (`handleAuthRequest`) and svc's router both read it,
 * and a `URL` parse cost about 4 µs of a REST read's CPU each time (the
 * CPU profile of BENCHMARKS.md section 1a). A request's `url` never
 * changes, so neither does its parse; svc's code only reads it.
 *
 * @example
 * ```ts
 * const { pathname } = requestUrl(request);
 * ```
 */
export function requestUrl(request: Request): URL {
  const parsed = request as ParsedRequest;
  let url = parsed[PARSED];
  if (url === undefined) {
    url = new URL(request.url);
    parsed[PARSED] = url;
  }
  return url;
}
