import { sizedResponse } from "../observability/body-size.ts";
import { stringifyJson } from "../values/json-codec.ts";

/** A JSON success response in the svc value encoding; never cached by shared caches. */
export function jsonResponse(
  value: unknown,
  init?: { status?: number; headers?: HeadersInit },
): Response {
  const text = stringifyJson(value);
  // Most answers add no headers: a fresh record, from which the response builds its only Headers
  // (a Headers made here was copied again by the Response; pairs instead of a record measured 4×
  // slower: workerd converts them through the iterator protocol; BENCHMARKS.md section 1a).
  if (init?.headers === undefined) {
    return sizedResponse(text, init?.status ?? 200, {
      "content-type": "application/json",
      "cache-control": "no-store",
    });
  }
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  return sizedResponse(text, init.status ?? 200, headers);
}
