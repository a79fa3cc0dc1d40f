/** On a response svc built: its body's size in bytes. */
const BODY_BYTES: unique symbol = Symbol("svc.bodyBytes");

type SizedResponse = Response & { [BODY_BYTES]?: number };

/** One encoder for every response: it keeps no state, and one per response was garbage per call. */
const ENCODER = new TextEncoder();

/** A body this short is checked for ASCII (its size is then its length) instead of encoded here. */
const ASCII_CHECK_MAX = 4096;
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * A response with `text` as its body: it declares the body's length (clients
 * see the size without reading the body) and carries it for the call's
 * record, which so never looks up the `content-length` header: the first
 * `response.headers` read makes workerd allocate a `Headers` object, which
 * cost about 2 µs a call (BENCHMARKS.md section 12). A short ASCII body (most
 * answers) is handed to workerd as the string, its size its length: encoding
 * it here and a second `Headers` built from `headers` ranked among the REST
 * read's svc-only costs (section 1a). Pass `headers` as a fresh record where
 * possible: `content-length` is added to it, and the response builds its one
 * `Headers` from it.
 *
 * @example return sizedResponse(JSON.stringify(problem), 429, { "content-type": "application/problem+json" });
 */
export function sizedResponse(
  text: string,
  status: number,
  headers: Headers | Record<string, string>,
): Response {
  let body: BodyInit = text;
  let bytes = text.length;
  if (text.length > ASCII_CHECK_MAX || NON_ASCII.test(text)) {
    body = ENCODER.encode(text);
    bytes = body.byteLength;
  }
  if (headers instanceof Headers) headers.set("content-length", String(bytes));
  else headers["content-length"] = String(bytes);
  const response: SizedResponse = new Response(body, { status, headers });
  response[BODY_BYTES] = bytes;
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
