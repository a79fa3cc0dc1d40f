/**
 * Why a captcha could not be verified (as opposed to a token that was
 * verified and found bad, which is a verdict, not an error).
 */
export const CAPTCHA_ERROR_CODES = {
  /** The verification endpoint could not be reached (DNS, connection, TLS). */
  NETWORK_ERROR: "NETWORK_ERROR",
  /** No reply within `timeoutMs`. */
  TIMEOUT: "TIMEOUT",
  /** The endpoint answered with a non-2xx status (see `status`). */
  HTTP_ERROR: "HTTP_ERROR",
  /** The reply was not JSON, or not a siteverify verdict. */
  INVALID_RESPONSE: "INVALID_RESPONSE",
  /** No secret, or the provider's always-pass test secret in production. */
  MISCONFIGURED: "MISCONFIGURED",
} as const;

/** A code from {@link CAPTCHA_ERROR_CODES}. */
export type CaptchaErrorCode = keyof typeof CAPTCHA_ERROR_CODES;

/**
 * The captcha service could not give a verdict. Everything but
 * `MISCONFIGURED` means "the service is down" (the middleware answers
 * `UNAVAILABLE`, or admits with `failOpen`); `MISCONFIGURED` is the app's bug
 * and never fails open.
 *
 * @example
 * ```ts
 * try { await verifyCaptcha({ secret, token }); }
 * catch (error) { if (error instanceof CaptchaVerificationError && error.code === "TIMEOUT") … }
 * ```
 */
export class CaptchaVerificationError extends Error {
  override readonly name = "CaptchaVerificationError";
  readonly code: CaptchaErrorCode;
  /** The HTTP status, for `HTTP_ERROR`. */
  readonly status: number | undefined;

  constructor(
    code: CaptchaErrorCode,
    message: string,
    options?: { status?: number; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options?.status;
  }

  /** True when the service, not the app, is at fault (what `failOpen` may forgive). */
  get serviceUnavailable(): boolean {
    return this.code !== "MISCONFIGURED";
  }
}
