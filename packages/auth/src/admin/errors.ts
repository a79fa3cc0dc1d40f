import { type ErrorCode, SvcError } from "@svc/server";

/** What a better-auth `APIError` carries (better-call's error, duck-typed across module copies). */
interface BetterAuthApiError {
  name: "APIError";
  statusCode: number;
  body?: { message?: unknown; code?: unknown };
}

/**
 * HTTP status of a better-auth `APIError` → svc error code. The operator is
 * authenticated by the admin token, so better-auth's 401 (a session it wanted
 * and did not get) is a refusal, `FORBIDDEN`, never `UNAUTHENTICATED`, which
 * would tell the dashboard its token is wrong.
 */
const BETTER_AUTH_STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  400: "BAD_REQUEST",
  401: "FORBIDDEN",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  422: "VALIDATION_FAILED",
  429: "RATE_LIMITED",
  503: "UNAVAILABLE",
};

/** better-auth error codes whose status says less than the code does. */
const BETTER_AUTH_CODE_OVERRIDES: Readonly<Record<string, ErrorCode>> = {
  USER_ALREADY_EXISTS: "CONFLICT",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "CONFLICT",
  USERNAME_IS_ALREADY_TAKEN: "CONFLICT",
  PASSWORD_TOO_SHORT: "VALIDATION_FAILED",
  PASSWORD_TOO_LONG: "VALIDATION_FAILED",
  INVALID_EMAIL: "VALIDATION_FAILED",
  ORGANIZATION_ALREADY_EXISTS: "CONFLICT",
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: "CONFLICT",
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: "CONFLICT",
};

/** Constraint failures D1 reports, as the conflicts they are. */
const D1_CONSTRAINTS: readonly [RegExp, string][] = [
  [/UNIQUE constraint failed/i, "Another record already has this value."],
  [/FOREIGN KEY constraint failed/i, "Other records still refer to this one."],
];

/**
 * Turns what an admin action threw into an {@link SvcError} with the status
 * it deserves: better-auth `APIError`s by code, then by status (its message
 * and code kept; the code also as `data.authCode`), D1 constraint failures as
 * `CONFLICT`. A better-auth 5xx becomes `INTERNAL` with the fixed message (its
 * own goes to the log). Anything else is returned unchanged, for
 * `problemResponse` to log and answer as `INTERNAL`.
 *
 * @example
 * ```ts
 * try { await api.createUser({ body }); } catch (error) { throw toAdminError(error); }
 * ```
 */
export function toAdminError(thrown: unknown): unknown {
  if (thrown instanceof SvcError) return thrown;
  if (isBetterAuthApiError(thrown)) return fromApiError(thrown);
  const message = thrown instanceof Error ? thrown.message : "";
  for (const [pattern, detail] of D1_CONSTRAINTS) {
    if (pattern.test(message)) return new SvcError("CONFLICT", detail, { cause: thrown });
  }
  return thrown;
}

function fromApiError(error: BetterAuthApiError): SvcError {
  const authCode = typeof error.body?.code === "string" ? error.body.code : undefined;
  const message = typeof error.body?.message === "string" ? error.body.message : undefined;
  const code =
    (authCode !== undefined ? BETTER_AUTH_CODE_OVERRIDES[authCode] : undefined) ??
    BETTER_AUTH_STATUS_CODES[error.statusCode] ??
    (error.statusCode >= 400 && error.statusCode < 500 ? "BAD_REQUEST" : "INTERNAL");
  if (code === "INTERNAL") {
    console.error("svc/auth admin: better-auth failed", error);
    return new SvcError("INTERNAL", "An internal error occurred.");
  }
  const detail = message ?? `better-auth refused the action (${error.statusCode}).`;
  const issues = code === "VALIDATION_FAILED" ? [{ path: "body", message: detail }] : undefined;
  return new SvcError(code, detail, {
    data: authCode === undefined ? undefined : { authCode },
    cause: error,
    ...(issues ? { issues } : {}),
  });
}

function isBetterAuthApiError(value: unknown): value is BetterAuthApiError {
  return (
    value instanceof Error &&
    value.name === "APIError" &&
    typeof (value as { statusCode?: unknown }).statusCode === "number"
  );
}
