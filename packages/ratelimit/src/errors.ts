import { defineErrorCodes } from "@svc/server/errors";

/**
 * Every code a rate-limit error carries, with its status and title, so a
 * caller can branch on `error.code` and the compiler checks the spelling.
 *
 * - `UNAVAILABLE`: the store (the Durable Object) could not answer; thrown as
 *   {@link RateLimitStoreError}. The only code about the runtime rather than
 *   about the caller's code, and so the only one a gate may fail open on.
 * - `UNKNOWN_RATE`: `limit(name)` named a rate the limiter was not built with.
 * - `INVALID_ARGUMENT`: a bad `key` or `count` passed to `limit`.
 * - `INVALID_CONFIG`: a bad `rates` entry or `store` option, or a store
 *   declared without SQLite.
 *
 * @example
 * ```ts
 * rateLimitErrorCodes.codes.UNAVAILABLE.status; // 503
 * ```
 */
export const rateLimitErrorCodes = defineErrorCodes("RateLimitError", {
  UNAVAILABLE: { status: 503, title: "Rate limit store unavailable" },
  UNKNOWN_RATE: { status: 500, title: "Unknown rate" },
  INVALID_ARGUMENT: { status: 500, title: "Invalid rate limit argument" },
  INVALID_CONFIG: { status: 500, title: "Invalid rate limit configuration" },
});

/**
 * A code from {@link rateLimitErrorCodes}.
 *
 * @example
 * ```ts
 * const failOpenOn: RateLimitErrorCode = "UNAVAILABLE";
 * ```
 */
export type RateLimitErrorCode = keyof typeof rateLimitErrorCodes.codes;

/**
 * The error class of `@svc/ratelimit`. Mistakes in how the limiter is built or
 * called throw it with a code that says which mistake; they are bugs to fix,
 * never conditions to fail open on.
 *
 * @example
 * ```ts
 * try {
 *   await limiter.limit("api", { key, count: 0 });
 * } catch (error) {
 *   if (error instanceof RateLimitError && error.code === "INVALID_ARGUMENT") ...
 * }
 * ```
 */
export class RateLimitError extends rateLimitErrorCodes.Error {
  override readonly name: string = "RateLimitError";
}

/**
 * Thrown (as a rejection of `limit`) when the store cannot give an answer: the
 * Durable Object threw, could not be reached, or did not answer within the
 * limiter's `timeout`. A limiter never turns a failure into `ok: true`; what to
 * do instead (fail open or closed) is the caller's decision. `cause` holds the
 * original error.
 *
 * Other packages that cannot import this class recognise it by
 * `name === "RateLimitStoreError"` and `code === "UNAVAILABLE"`.
 *
 * @example
 * ```ts
 * try {
 *   result = await limiter.limit("api", { key: ip });
 * } catch (error) {
 *   if (!(error instanceof RateLimitStoreError)) throw error;
 *   result = failOpen ? allowed : refused; // the store is down: your policy
 * }
 * ```
 */
export class RateLimitStoreError extends RateLimitError {
  override readonly name = "RateLimitStoreError";
  declare readonly code: "UNAVAILABLE";

  constructor(message: string, options?: { cause?: unknown }) {
    super("UNAVAILABLE", message, options);
  }
}
