import { stringifyJson } from "../values/json-codec.ts";
import { sizedResponse } from "./body-size.ts";

/** A JSON success response in the svc value encoding; never cached by shared caches. */
export function jsonResponse(
  value: unknown,
  init?: { status?: number; headers?: HeadersInit },
): Response {
  const headers = new Headers(init?.headers);
  headers.set("content-type", "application/json");
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  return sizedResponse(stringifyJson(value), init?.status ?? 200, headers);
}
