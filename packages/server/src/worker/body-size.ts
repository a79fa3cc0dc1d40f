/** On a response svc built: its body's size in bytes. */
const BODY_BYTES: unique symbol = Symbol("svc.bodyBytes");

type SizedResponse = Response & { [BODY_BYTES]?: number };

/**
 * Marks a response svc built with its body's size, so the call's record
 * reads it without looking up the `content-length` header: the first
 * `response.headers` read makes workerd allocate a `Headers` object, which
 * cost about 1 µs a call (BENCHMARKS.md section 12).
 *
 * @example return sized(new Response(body, { headers }), body.byteLength);
 */
export function sized(response: Response, bytes: number): Response {
  (response as SizedResponse)[BODY_BYTES] = bytes;
  return response;
}

/**
 * The body size {@link sized} marked `response` with, else `undefined`.
 *
 * @example const bytes = sizeOf(response) ?? declaredLength(response.headers);
 */
export function sizeOf(response: Response): number | undefined {
  return (response as SizedResponse)[BODY_BYTES];
}
