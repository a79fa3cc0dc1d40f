import { SvcError, type ValidationIssue, type Validator, validationFailed } from "@svc/server";
import { isJsonContentType, jsonResponse, readJsonBody } from "@svc/server/internal";

/** Largest admin request body; every admin body is a handful of fields. */
const MAX_ADMIN_BODY_BYTES = 64 * 1024;

/**
 * A JSON answer of the admin surface. `cache-control: no-store`: the answers
 * are personal data, and once a live token.
 *
 * @example
 * ```ts
 * return json({ user }, 201);
 * ```
 */
export function json(value: unknown, status = 200): Response {
  return jsonResponse(value, { status });
}

/**
 * Collects per-field problems of one request and throws them together as one
 * `VALIDATION_FAILED`, so an operator sees every mistake at once.
 *
 * @example
 * ```ts
 * const issues = new Issues("body");
 * if (password.length < 8) issues.add("password", "must be at least 8 characters");
 * issues.throwIfAny();
 * ```
 */
export class Issues {
  readonly #root: string;
  readonly #issues: ValidationIssue[] = [];

  constructor(root: string) {
    this.#root = root;
  }

  add(field: string, message: string): void {
    this.#issues.push({ path: `${this.#root}.${field}`, message });
  }

  throwIfAny(): void {
    if (this.#issues.length === 0) return;
    throw validationFailed(this.#issues, "Invalid request: ");
  }
}

/**
 * Reads and checks a JSON request body against a `v.object(...)` validator
 * (unknown fields are refused). An absent or empty body reads as `{}`, so
 * routes whose fields are all optional accept a bare `POST`.
 *
 * @throws {SvcError} `BAD_REQUEST` (not JSON, not an object), `PAYLOAD_TOO_LARGE`,
 * `VALIDATION_FAILED` (with `errors` per field)
 * @example
 * ```ts
 * const { role } = await readBody(request, v.object({ role: v.string() }));
 * ```
 */
export async function readBody<T>(request: Request, validator: Validator<T, boolean>): Promise<T> {
  const body = await readJsonBody(request, MAX_ADMIN_BODY_BYTES);
  if (body !== undefined && !isJsonContentType(request.headers.get("content-type"))) {
    throw new SvcError(
      "BAD_REQUEST",
      "The request body must be JSON (content-type: application/json).",
    );
  }
  const value: unknown = body ?? {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new SvcError("BAD_REQUEST", "The request body must be a JSON object.");
  }
  const result = validator["~standard"].validate(value);
  if (result instanceof Promise) throw new Error("svc/auth admin: validators are synchronous");
  if (result.issues) {
    const issues = new Issues("body");
    for (const issue of result.issues) {
      const path = (issue.path ?? []).map((segment) =>
        typeof segment === "object" ? String(segment.key) : String(segment),
      );
      issues.add(path.join("."), issue.message);
    }
    issues.throwIfAny();
  }
  return value as T;
}
