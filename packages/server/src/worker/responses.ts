import { stringifyJson } from "../values/json-codec.ts";
import { sized } from "./body-size.ts";

/** A JSON success response in the svc value encoding; never cached by shared caches. */
export function jsonResponse(
  value: unknown,
  init?: { status?: number; headers?: HeadersInit },
): Response {
  const headers = new Headers(init?.headers);
  headers.set("content-type", "application/json");
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  const body = new TextEncoder().encode(stringifyJson(value));
  // A declared length: clients and call records see the size without reading the body.
  headers.set("content-length", String(body.byteLength));
  return sized(new Response(body, { status: init?.status ?? 200, headers }), body.byteLength);
}
