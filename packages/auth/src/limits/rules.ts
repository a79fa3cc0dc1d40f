import { HOUR, MINUTE, type RateConfig } from "@svc/ratelimit";
import type { AccountPath } from "./accounts.ts";

/** Names of the auth endpoint limits; each can be given a new rate or turned off. */
export type AuthLimitName =
  | "signInPerIp"
  | "signInPerAccount"
  | "signUpPerIp"
  | "oneTimeCodePerIp"
  | "oneTimeCodePerAccount"
  | "sendPerIp"
  | "sendPerTarget"
  | "twoFactorPerIp"
  | "twoFactorPerAccount";

/** One limit: which better-auth paths it counts, whose bucket, and the rate. */
export interface AuthLimitRule {
  /** Paths after the auth base path, e.g. `/sign-in/email`. */
  paths: readonly string[];
  /**
   * `ip`: the caller's IP; `target`: the account the path names (its own
   * field, see `AUTH_ACCOUNT_SOURCES`).
   */
  by: "ip" | "target";
  rate: RateConfig;
}

/** Password sign-ins. */
const SIGN_IN_PATHS = [
  "/sign-in/email",
  "/sign-in/username",
  "/sign-in/phone-number",
] as const satisfies readonly AccountPath[];
/** Checks of a one-time code sent by email or SMS (6 digits: guessable without a limit). */
const ONE_TIME_CODE_PATHS = [
  "/sign-in/email-otp",
  "/email-otp/verify-email",
  "/email-otp/check-verification-otp",
  "/email-otp/reset-password",
  "/email-otp/change-email",
  "/phone-number/verify",
  "/phone-number/reset-password",
] as const satisfies readonly AccountPath[];
/** Endpoints that send an email or SMS to an address. */
const SEND_PATHS = [
  "/request-password-reset",
  "/forget-password/email-otp",
  "/email-otp/request-password-reset",
  "/phone-number/request-password-reset",
  "/sign-in/magic-link",
  "/email-otp/send-verification-otp",
  "/phone-number/send-otp",
  "/send-verification-email",
  "/change-email",
  "/email-otp/request-email-change",
  "/two-factor/send-otp",
] as const satisfies readonly AccountPath[];
/** Second-factor checks after a password sign-in. */
const TWO_FACTOR_PATHS = [
  "/two-factor/verify-totp",
  "/two-factor/verify-otp",
  "/two-factor/verify-backup-code",
] as const satisfies readonly AccountPath[];
/** Endpoints that create a user. */
const SIGN_UP_PATHS = ["/sign-up/email", "/sign-in/anonymous"] as const;

/**
 * The default limits of the sensitive auth endpoints, counted exactly in
 * `@svc/ratelimit`'s Durable Object (sliding windows). Chosen so a person
 * never meets them and a script does at once: 10 sign-ins per account in
 * 15 minutes stops password guessing at 40 guesses an hour; per IP, 30
 * sign-ins and 20 sign-ups per 10 minutes allow an office behind one address.
 * One-time codes and second factors get the same per-account budget as
 * passwords, since a 6-digit code is easier to guess than a password.
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
    paths: SIGN_UP_PATHS,
    by: "ip",
    rate: { kind: "sliding window", rate: 20, period: 10 * MINUTE },
  },
  oneTimeCodePerIp: {
    paths: ONE_TIME_CODE_PATHS,
    by: "ip",
    rate: { kind: "sliding window", rate: 30, period: 10 * MINUTE },
  },
  oneTimeCodePerAccount: {
    paths: ONE_TIME_CODE_PATHS,
    by: "target",
    rate: { kind: "sliding window", rate: 10, period: 15 * MINUTE },
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
  twoFactorPerAccount: {
    paths: TWO_FACTOR_PATHS,
    by: "target",
    rate: { kind: "sliding window", rate: 10, period: 15 * MINUTE },
  },
};
