import { SvcError, type ValidationIssue } from "../errors/svc-error.ts";
import { validationFailed } from "../errors/validation-failed.ts";
import { isJsonContentType, readJsonBody } from "../http/body.ts";
import type { AnyValidator, Issue } from "../values/validator.ts";

/** Largest body a declared route reads unless its group says otherwise: admin bodies are a handful of fields. */
export const DEFAULT_ROUTE_BODY_BYTES = 64 * 1024;

/**
 * Reads a route's JSON body and checks it against the declared validator.
 * For a `v.object` body the JSON must be an object, and an absent or empty
 * body reads as `{}`, so a route whose fields are all optional accepts a
 * bare `POST`. Issue paths are `body.<field>` (segments joined by `.`).
 *
 * @throws {SvcError} `BAD_REQUEST` (not JSON, not an object), `PAYLOAD_TOO_LARGE`,
 * `VALIDATION_FAILED` (with `errors` per field)
 * @example
 * ```ts
 * const { role } = (await readRouteBody(request, v.object({ role: v.string() }), 64 * 1024)) as { role: string };
 * ```
 */
export async function readRouteBody(
  request: Request,
  validator: AnyValidator,
  maxBytes: number,
): Promise<unknown> {
  const body = await readJsonBody(request, maxBytes);
  if (body !== undefined && !isJsonContentType(request.headers.get("content-type"))) {
    throw new SvcError(
      "BAD_REQUEST",
      "The request body must be JSON (content-type: application/json).",
    );
  }
  const isObject = validator.kind === "object";
  const value: unknown = body ?? (isObject ? {} : undefined);
  if (isObject && (typeof value !== "object" || value === null || Array.isArray(value))) {
    throw new SvcError("BAD_REQUEST", "The request body must be a JSON object.");
  }
  checkBody(value, validator);
  return value;
}

/**
 * Checks a value against a body validator and throws every issue at once as
 * `VALIDATION_FAILED` (paths `body.<field>`): also for a handler whose
 * fields are known only at run time (the editable user fields).
 *
 * @throws {SvcError} `VALIDATION_FAILED`
 * @example
 * ```ts
 * checkBody(body, v.object({ name: v.optional(v.string()) }));
 * ```
 */
export function checkBody(value: unknown, validator: AnyValidator): void {
  const found: Issue[] = [];
  validator.check(value, { path: [], issues: found });
  if (found.length === 0) return;
  const issues: ValidationIssue[] = found.map((issue) => ({
    path: ["body", ...issue.path].join("."),
    message: issue.message,
  }));
  throw validationFailed(issues, "Invalid request: ");
}
