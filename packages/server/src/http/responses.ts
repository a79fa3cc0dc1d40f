import { sizedResponse } from "../observability/body-size.ts";
import { stringifyJson } from "../values/json-codec.ts";

/**
 * The headers of a JSON answer that adds none of its own. A record, not
 * pairs: workerd converts an array of pairs through the iterator protocol,
 * which measured 4× slower than this record (and slower than the sets it
 * replaced); see section 1a of BENCHMARKS.md.
 */
const JSON_HEADERS: Record<string, string> = {
  "content-type": "application/json",
  "cache-control": "no-store",
};

/** A JSON success response in the svc value encoding; never cached by shared caches. */
export function jsonResponse(
  value: unknown,
  init?: { status?: number; headers?: HeadersInit },
): Response {
  const text = stringifyJson(value);
  // Most answers add no headers: one Headers built from a constant record instead of a copy,
  // two sets and a lookup (the REST read's CPU profile ranked this function on every read).
  if (init?.headers === undefined) {
    return sizedResponse(text, init?.status ?? 200, new Headers(JSON_HEADERS));
  }
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  return sizedResponse(text, init.status ?? 200, headers);
}
