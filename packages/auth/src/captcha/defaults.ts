/** The default `verifyUrl`: the siteverify endpoint of the default provider (Cloudflare Turnstile). */
export const CAPTCHA_SITEVERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

/**
 * The provider's documented test secret that passes every token. Refused when
 * the app says it runs in production, where it would switch the check off.
 *
 * @see https://developers.cloudflare.com/turnstile/troubleshooting/testing/
 */
export const CAPTCHA_TEST_SECRET_ALWAYS_PASSES = "1x0000000000000000000000000000000AA";

/** How long `verifyCaptcha` waits for the verdict by default, in milliseconds. */
export const DEFAULT_CAPTCHA_TIMEOUT_MS = 10_000;
