import { sizedResponse } from "../observability/body-size.ts";
import { stringifyJson } from "../values/json-codec.ts";

/**
 * A JSON success response in the svc value encoding; never cached by shared
 * caches. `limitHeaders` are the gates' `RateLimit-*` headers (lowercase
 * names, from `takeLimitHeaders`), put in the answer's one header record as
 * it is built: setting them on the finished answer cost the leased gate a
 * `Headers` read and a set per header (BENCHMARKS.md section 1a).
 *
 * @example return jsonResponse({ value }, { limitHeaders: takeLimitHeaders(admitted) });
 */
export function jsonResponse(value: unknown, init?: JsonResponseInit): Response {
  return jsonTextResponse(stringifyJson(value), init);
}

/** A JSON answer's status, extra headers and the gates' `RateLimit-*` headers. */
export interface JsonResponseInit {
  status?: number;
  headers?: HeadersInit;
  limitHeaders?: Record<string, string>;
}

/**
 * {@link jsonResponse} of text already in svc's JSON encoding: what a shard
 * answered for a REST or RPC call (shard/call.ts, `answerAs: "json"`).
 *
 * @example return jsonTextResponse(`{"value":${json}}`, { limitHeaders: takeLimitHeaders(admitted) });
 */
export function jsonTextResponse(text: string, init?: JsonResponseInit): Response {
  // No options (most answers): a literal record, with no spread of an empty one to copy.
  if (init === undefined)
    return sizedResponse(text, 200, {
      "content-type": "application/json",
      "cache-control": "no-store",
    });
  // Most answers add no headers: a fresh record, from which the response builds its only Headers
  // (a Headers made here was copied again by the Response; pairs instead of a record measured 4×
  // slower: workerd converts them through the iterator protocol; BENCHMARKS.md section 1a).
  if (init?.headers === undefined) {
    return sizedResponse(text, init?.status ?? 200, {
      ...init?.limitHeaders,
      "content-type": "application/json",
      "cache-control": "no-store",
    });
  }
  const headers = new Headers(init.headers);
  for (const [name, headerValue] of Object.entries(init.limitHeaders ?? {}))
    headers.set(name, headerValue);
  headers.set("content-type", "application/json");
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  return sizedResponse(text, init.status ?? 200, headers);
}
