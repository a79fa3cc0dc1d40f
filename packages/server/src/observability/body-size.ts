/** On a response svc built: its body's size in bytes. */
const BODY_BYTES: unique symbol = Symbol("svc.bodyBytes");

type SizedResponse = Response & { [BODY_BYTES]?: number };

/** One encoder for every response: it keeps no state, and one per response was garbage per call. */
const ENCODER = new TextEncoder();

/**
 * A response with `text` as its body, encoded here: it declares the body's
 * length (clients see the size without reading the body) and carries it for
 * the call's record, which so never looks up the `content-length` header:
 * the first `response.headers` read makes workerd allocate a `Headers`
 * object, which cost about 2 µs a call (BENCHMARKS.md section 12).
 *
 * @example return sizedResponse(JSON.stringify(problem), 429, headers);
 */
export function sizedResponse(text: string, status: number, headers: Headers): Response {
  const body = ENCODER.encode(text);
  headers.set("content-length", String(body.byteLength));
  const response: SizedResponse = new Response(body, { status, headers });
  response[BODY_BYTES] = body.byteLength;
  return response;
}

/**
 * The body size of a response {@link sizedResponse} made, else `undefined`.
 *
 * @example const bytes = sizeOf(response) ?? declaredLength(response.headers);
 */
export function sizeOf(response: Response): number | undefined {
  return (response as SizedResponse)[BODY_BYTES];
}
