import { HOUR, MINUTE, type RateConfig } from "@svc/ratelimit";

/** Names of the auth endpoint limits; each can be given a new rate or turned off. */
export type AuthLimitName =
  | "signInPerIp"
  | "signInPerAccount"
  | "signUpPerIp"
  | "sendPerIp"
  | "sendPerTarget"
  | "twoFactorPerIp";

/** One limit: which better-auth paths it counts, whose bucket, and the rate. */
export interface AuthLimitRule {
  /** Paths after the auth base path, e.g. `/sign-in/email`. */
  paths: readonly string[];
  /** `ip`: the caller's IP; `target`: the account or address named in the body. */
  by: "ip" | "target";
  rate: RateConfig;
}

const SIGN_IN_PATHS = ["/sign-in/email", "/sign-in/username", "/sign-in/phone-number"] as const;
const SEND_PATHS = [
  "/request-password-reset",
  "/forget-password/email-otp",
  "/email-otp/request-password-reset",
  "/phone-number/request-password-reset",
  "/sign-in/magic-link",
  "/email-otp/send-verification-otp",
  "/phone-number/send-otp",
  "/send-verification-email",
  "/two-factor/send-otp",
] as const;
const TWO_FACTOR_PATHS = [
  "/two-factor/verify-totp",
  "/two-factor/verify-otp",
  "/two-factor/verify-backup-code",
] as const;

/**
 * The default limits of the sensitive auth endpoints, counted exactly in
 * `@svc/ratelimit`'s Durable Object (sliding windows). Chosen so a person
 * never meets them and a script does at once: 10 sign-ins per account in
 * 15 minutes stops password guessing at 40 guesses an hour; per IP, 30
 * sign-ins and 20 sign-ups per 10 minutes allow an office behind one address.
 *
 * @example
 * ```ts
 * DEFAULT_AUTH_LIMITS.signInPerAccount.rate; // { kind: "sliding window", rate: 10, period: 15 * MINUTE }
 * ```
 */
export const DEFAULT_AUTH_LIMITS: Readonly<Record<AuthLimitName, AuthLimitRule>> = {
  signInPerIp: {
    paths: SIGN_IN_PATHS,
    by: "ip",
    rate: { kind: "sliding window", rate: 30, period: 10 * MINUTE },
  },
  signInPerAccount: {
    paths: SIGN_IN_PATHS,
    by: "target",
    rate: { kind: "sliding window", rate: 10, period: 15 * MINUTE },
  },
  signUpPerIp: {
    paths: ["/sign-up/email"],
    by: "ip",
    rate: { kind: "sliding window", rate: 20, period: 10 * MINUTE },
  },
  sendPerIp: {
    paths: SEND_PATHS,
    by: "ip",
    rate: { kind: "sliding window", rate: 20, period: HOUR },
  },
  sendPerTarget: {
    paths: SEND_PATHS,
    by: "target",
    rate: { kind: "sliding window", rate: 5, period: HOUR },
  },
  twoFactorPerIp: {
    paths: TWO_FACTOR_PATHS,
    by: "ip",
    rate: { kind: "sliding window", rate: 10, period: 5 * MINUTE },
  },
};

/**
 * The account or address a request names (`email`, `username` or
 * `phoneNumber`, normalised), or `undefined` when it names none.
 *
 * @example
 * ```ts
 * targetOf({ email: " Ann@Example.com " }); // "email:ann@example.com"
 * ```
 */
export function targetOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  for (const field of ["email", "username", "phoneNumber"] as const) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value === "string" && value.trim() !== "") {
      return `${field}:${value.trim().toLowerCase()}`;
    }
  }
  return undefined;
}
