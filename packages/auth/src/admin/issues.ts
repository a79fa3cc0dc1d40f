import { type ValidationIssue, validationFailed } from "@svc/server";

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
