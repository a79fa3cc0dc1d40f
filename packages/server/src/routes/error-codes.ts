import type { ErrorCode } from "../errors/error-codes.ts";
import type { RouteSpec } from "./contract/route.ts";

/**
 * Every error code a declared route can answer: the ones the router itself
 * answers (a refused query parameter, a bad body, an unknown id or a
 * capability that is off, an internal failure) plus the route's own
 * `errors` and the surface's `always` (its gate: `UNAUTHENTICATED`).
 *
 * @example
 * ```ts
 * routeErrorCodes(route({ method: "GET", path: "users/:id", summary: "", answer: user }), ["UNAUTHENTICATED"]);
 * // ["UNAUTHENTICATED", "VALIDATION_FAILED", "INTERNAL", "NOT_FOUND"]
 * ```
 */
export function routeErrorCodes(spec: RouteSpec, always: readonly ErrorCode[] = []): ErrorCode[] {
  const codes = new Set<ErrorCode>([...always, "VALIDATION_FAILED", "INTERNAL"]);
  if (spec.path.includes(":") || spec.path.endsWith("*") || spec.requires !== undefined)
    codes.add("NOT_FOUND");
  if (spec.body !== undefined) {
    codes.add("BAD_REQUEST");
    codes.add("PAYLOAD_TOO_LARGE");
    codes.add("VALIDATION_FAILED");
  }
  for (const code of spec.errors ?? []) codes.add(code);
  return [...codes];
}
