import { defineErrorCodes } from "@svc/server/errors";

/**
 * Why a captcha could not be verified (as opposed to a token that was
 * verified and found bad, which is a verdict, not an error), with the status
 * each answers: 503 when the service is at fault (what `failOpen` may
 * forgive), 500 when the app is.
 *
 * @example
 * ```ts
 * captchaErrorCodes.codes.TIMEOUT.status; // 503
 * ```
 */
export const captchaErrorCodes = defineErrorCodes("CaptchaVerificationError", {
  /** The verification endpoint could not be reached (DNS, connection, TLS). */
  NETWORK_ERROR: { status: 503, title: "Captcha service unreachable" },
  /** No reply within `timeoutMs`. */
  TIMEOUT: { status: 503, title: "Captcha service timed out" },
  /** The endpoint answered with a non-2xx status (see `status`). */
  HTTP_ERROR: { status: 503, title: "Captcha service failed" },
  /** The reply was not JSON, or not a siteverify verdict. */
  INVALID_RESPONSE: { status: 503, title: "Captcha service answered nonsense" },
  /** No secret, or the provider's always-pass test secret in production. */
  MISCONFIGURED: { status: 500, title: "Captcha misconfigured" },
});

/**
 * Each captcha error code mapped to itself.
 *
 * @example
 * ```ts
 * if (error.code === CAPTCHA_ERROR_CODES.TIMEOUT) retry();
 * ```
 */
export const CAPTCHA_ERROR_CODES = captchaErrorCodes.names;

/** A code from {@link captchaErrorCodes}. */
export type CaptchaErrorCode = keyof typeof captchaErrorCodes.codes;

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
export class CaptchaVerificationError extends captchaErrorCodes.Error {
  override readonly name = "CaptchaVerificationError";
  /** The HTTP status, for `HTTP_ERROR`. */
  readonly status: number | undefined;

  constructor(
    code: CaptchaErrorCode,
    message: string,
    options?: { status?: number; cause?: unknown },
  ) {
    super(code, message, options);
    this.status = options?.status;
  }

  /** True when the service, not the app, is at fault (what `failOpen` may forgive). */
  get serviceUnavailable(): boolean {
    return captchaErrorCodes.codes[this.code].status === 503;
  }
}
