import { type BaseCtx, type Middleware, SvcError } from "@svc/server";
import { type CaptchaErrorCode, CaptchaVerificationError } from "./errors.ts";
import { type CaptchaVerdict, type VerifyCaptchaOptions, verifyCaptcha } from "./verify.ts";

/** Options of {@link verifyCaptchaMiddleware}. */
export interface VerifyCaptchaMiddlewareOptions<Ctx>
  extends Omit<VerifyCaptchaOptions, "token" | "remoteip" | "idempotencyKey"> {
  /**
   * Reads the token from the call, typically from the arguments: the
   * procedure context carries no raw headers.
   */
  token: (ctx: Ctx) => string | null | undefined;
  /** Reads the caller's IP from the call, when the procedure has it. */
  remoteip?: (ctx: Ctx) => string | undefined;
  /**
   * Admit the call when the captcha service cannot give a verdict (down, slow,
   * garbled). A failed verdict is still refused. @default false (fail closed)
   */
  failOpen?: boolean;
}

/** What the middleware leaves on `ctx.meta.captcha` for the handler. */
export interface CaptchaMeta {
  /** True when a verdict said yes; false when admitted by `failOpen`. */
  verified: boolean;
  /** Why no verdict could be had, when admitted by `failOpen`. */
  error?: CaptchaErrorCode;
}

/**
 * Procedure middleware that verifies a captcha token before the handler runs
 * (it runs after argument validation, so the selector sees `ctx.args`).
 * Refuses with `FORBIDDEN` on a failed verdict and `UNAVAILABLE` when the
 * service cannot be reached, unless `failOpen: true`; the handler finds
 * {@link CaptchaMeta} on `ctx.meta.captcha`.
 *
 * @example
 * ```ts
 * export const signup = mutation
 *   .input({ email: v.string(), token: v.string() })
 *   .use(verifyCaptchaMiddleware({ secret: env.CAPTCHA_SECRET_KEY, token: (ctx) => ctx.args.token }))
 *   .handler(async (ctx, args) => …);
 * ```
 */
export function verifyCaptchaMiddleware<Ctx extends BaseCtx>(
  options: VerifyCaptchaMiddlewareOptions<Ctx>,
): Middleware<Ctx> {
  const { token, remoteip, failOpen = false, ...verifyOptions } = options;
  const check = async (ctx: Ctx): Promise<CaptchaMeta> => {
    const ip = remoteip?.(ctx);
    let verdict: CaptchaVerdict;
    try {
      verdict = await verifyCaptcha({
        ...verifyOptions,
        token: token(ctx) ?? "",
        ...(ip ? { remoteip: ip } : {}),
      });
    } catch (error) {
      if (!(error instanceof CaptchaVerificationError && error.serviceUnavailable)) throw error;
      if (!failOpen) {
        throw new SvcError("UNAVAILABLE", "Captcha verification is unavailable; try again.", {
          data: {
            reason: error.code,
          },
        });
      }
      return { verified: false, error: error.code };
    }
    if (!verdict.success) {
      throw new SvcError("FORBIDDEN", "Captcha verification failed.", {
        data: {
          errorCodes: verdict.errorCodes,
        },
      });
    }
    return { verified: true };
  };
  return async (ctx, next) => {
    ctx.meta.captcha = await check(ctx);
    return next();
  };
}
