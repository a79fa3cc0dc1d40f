/**
 * What one error code declares, once: the HTTP status it answers with and the
 * short human title of its problem details (`title` is per code, `detail` per
 * occurrence). A code that never leaves the process (a misconfiguration, a CLI
 * mistake) still names the status a server would answer if one surfaced it.
 *
 * @example
 * ```ts
 * const spec: ErrorCodeSpec = { status: 404, title: "Not found" };
 * ```
 */
export interface ErrorCodeSpec {
  readonly status: number;
  readonly title: string;
}

/**
 * The problem-details fields a code fixes (RFC 9457): everything but the
 * per-error extras (`errors`, `data`). `type` is a stable URN per code.
 *
 * @example
 * ```ts
 * const fields: ProblemFields = { type: "urn:svc:error:not-found", title: "Not found", status: 404, code: "NOT_FOUND", detail: "No such user." };
 * ```
 */
export interface ProblemFields {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
}

/**
 * An error of one family: an `Error` whose `code` is one of the family's
 * codes, so `error.code === "…"` is checked by the compiler.
 *
 * @example
 * ```ts
 * function codeOf(error: CodedError<"TIMEOUT" | "HTTP_ERROR">): string { return error.code; }
 * ```
 */
export interface CodedError<Code extends string> extends Error {
  readonly code: Code;
}

/**
 * Everything {@link defineErrorCodes} yields from one declaration of codes.
 *
 * @example
 * ```ts
 * const errors: ErrorCodeFamily<"TIMEOUT"> = defineErrorCodes("ProbeError", {
 *   TIMEOUT: { status: 503, title: "Probe timed out" },
 * });
 * ```
 */
export interface ErrorCodeFamily<Code extends string> {
  /** The declaration itself: each code with its status and title. */
  readonly codes: { readonly [C in Code]: ErrorCodeSpec };
  /** Each code mapped to itself, for callers that match `error.code === NAMES.X`. */
  readonly names: { readonly [C in Code]: C };
  /** The family's error class; extend it to give the class its exported name and extras. */
  readonly Error: new (
    code: Code,
    message: string,
    options?: { cause?: unknown },
  ) => CodedError<Code>;
  /** True when `value` is one of the family's codes. */
  isCode(value: unknown): value is Code;
  /** The problem-details fields of `code` with `detail` as the occurrence's message. */
  problem(code: Code, detail: string): ProblemFields;
}

/**
 * Declares a family of error codes once — each with its HTTP status and
 * problem-details title — and yields the typed error class, the code guard
 * and the problem-details mapping. Every svc package declares its errors this
 * way (`SvcError`, `SvcAuthError`, `CaptchaVerificationError`,
 * `RateLimitError`, `SvcCliError`), so a code, its status and its title are
 * written in one place and every error has the same shape: `name`, `code`,
 * `message`, `cause`.
 *
 * @example
 * ```ts
 * const probeErrors = defineErrorCodes("ProbeError", {
 *   TIMEOUT: { status: 503, title: "Probe timed out" },
 *   MISCONFIGURED: { status: 500, title: "Probe misconfigured" },
 * });
 * export type ProbeErrorCode = keyof typeof probeErrors.codes;
 * export class ProbeError extends probeErrors.Error {
 *   override readonly name = "ProbeError";
 * }
 *
 * throw new ProbeError("TIMEOUT", "No answer within 2 s.");
 * probeErrors.problem("TIMEOUT", "No answer within 2 s.").status; // 503
 * ```
 */
export function defineErrorCodes<const Specs extends Readonly<Record<string, ErrorCodeSpec>>>(
  name: string,
  specs: Specs,
): ErrorCodeFamily<keyof Specs & string> {
  type Code = keyof Specs & string;
  const codes: { readonly [C in Code]: ErrorCodeSpec } = specs;
  const isCode = (value: unknown): value is Code =>
    typeof value === "string" && Object.hasOwn(specs, value);
  class FamilyError extends Error implements CodedError<Code> {
    override readonly name: string = name;
    readonly code: Code;

    constructor(code: Code, message: string, options?: { cause?: unknown }) {
      super(message, options?.cause === undefined ? undefined : { cause: options.cause });
      this.code = code;
    }
  }
  const names = Object.fromEntries(Object.keys(specs).map((code) => [code, code]));
  return {
    codes,
    names: names as { readonly [C in Code]: C },
    Error: FamilyError,
    isCode,
    problem: (code, detail) => ({
      type: `urn:svc:error:${code.toLowerCase().replaceAll("_", "-")}`,
      title: codes[code].title,
      status: codes[code].status,
      code,
      detail,
    }),
  };
}
