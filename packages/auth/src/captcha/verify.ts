import {
  CAPTCHA_SITEVERIFY_URL,
  CAPTCHA_TEST_SECRET_ALWAYS_PASSES,
  DEFAULT_CAPTCHA_TIMEOUT_MS,
} from "./defaults.ts";
import { CaptchaVerificationError } from "./errors.ts";

/** Options of {@link verifyCaptcha}. */
export interface VerifyCaptchaOptions {
  /** The provider's secret key (`CAPTCHA_SECRET_KEY`). */
  secret: string;
  /** The token the client widget produced. */
  token: string;
  /** The caller's IP (`cf-connecting-ip`), which the provider checks against the solver. */
  remoteip?: string;
  /** The `fetch` to use. @default globalThis.fetch */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /**
   * Sent as `idempotency_key`, so a retried request is answered like the first
   * instead of as a replayed token. @default crypto.randomUUID()
   */
  idempotencyKey?: string;
  /** The siteverify endpoint. @default Cloudflare Turnstile's */
  verifyUrl?: string;
  /** Give up (with `TIMEOUT`) after this many milliseconds per attempt. @default 10000 */
  timeoutMs?: number;
  /** Extra attempts, with the same idempotency key, after a network error or a 5xx. @default 1 */
  retries?: number;
  /** Refuse a verdict whose `action` differs (the widget's `data-action`). */
  expectedAction?: string;
  /** Refuse a verdict whose `hostname` is not this one (or one of these). */
  expectedHostname?: string | readonly string[];
  /** Set in production: the provider's always-pass test secret is then refused. @default false */
  production?: boolean;
}

/** The provider's answer about one token. */
export interface CaptchaVerdict {
  /** True only for a valid, unspent token that matched the expectations given. */
  success: boolean;
  /**
   * The provider's `error-codes` (e.g. `invalid-input-response`,
   * `timeout-or-duplicate`), plus `action-mismatch` / `hostname-mismatch` when
   * an expectation failed.
   */
  errorCodes: string[];
  /** ISO-8601 time the challenge was solved. */
  challengeTs?: string;
  hostname?: string;
  action?: string;
  cdata?: string;
  /** The idempotency key that was sent. */
  idempotencyKey: string;
}

/** Turnstile tokens are at most 2048 characters; longer input is refused without a request. */
const MAX_TOKEN_LENGTH = 2048;

/**
 * Verifies a captcha token server-side with a Turnstile-compatible siteverify
 * endpoint (form POST of `secret`, `response`, `remoteip`, `idempotency_key`).
 * A bad, expired, replayed or missing token is a verdict with
 * `success: false`, never a throw; only a failure to get a verdict throws.
 *
 * @throws {CaptchaVerificationError} `NETWORK_ERROR`, `TIMEOUT`, `HTTP_ERROR`
 * (non-2xx), `INVALID_RESPONSE` (not JSON, not a verdict), `MISCONFIGURED`.
 * @example
 * ```ts
 * const verdict = await verifyCaptcha({
 *   secret: env.CAPTCHA_SECRET_KEY,
 *   token,
 *   remoteip: request.headers.get("cf-connecting-ip") ?? undefined,
 *   expectedAction: "signup",
 * });
 * if (!verdict.success) return new Response("captcha failed", { status: 403 });
 * ```
 */
export async function verifyCaptcha(options: VerifyCaptchaOptions): Promise<CaptchaVerdict> {
  const idempotencyKey = options.idempotencyKey ?? crypto.randomUUID();
  checkSecret(options);
  const token = options.token ?? "";
  if (token === "") return refused(idempotencyKey, "missing-input-response");
  if (token.length > MAX_TOKEN_LENGTH) return refused(idempotencyKey, "invalid-input-response");

  const form = new URLSearchParams({
    secret: options.secret,
    response: token,
    idempotency_key: idempotencyKey,
  });
  if (options.remoteip) form.set("remoteip", options.remoteip);
  const retries = options.retries ?? 1;
  for (let attempt = 0; ; attempt++) {
    try {
      const reply = await post(options, form.toString());
      return judge(reply, options, idempotencyKey);
    } catch (error) {
      if (attempt >= retries || !isTransient(error)) throw error;
    }
  }
}

function checkSecret(options: VerifyCaptchaOptions): void {
  if (typeof options.secret !== "string" || options.secret === "") {
    throw new CaptchaVerificationError(
      "MISCONFIGURED",
      "verifyCaptcha needs `secret` (the CAPTCHA_SECRET_KEY environment value).",
    );
  }
  if (options.production && options.secret === CAPTCHA_TEST_SECRET_ALWAYS_PASSES) {
    throw new CaptchaVerificationError(
      "MISCONFIGURED",
      "verifyCaptcha got the provider's always-pass test secret in production, which would accept every token. Set the real CAPTCHA_SECRET_KEY.",
    );
  }
}

async function post(options: VerifyCaptchaOptions, body: string): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CAPTCHA_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const send = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  let text: string;
  try {
    const response = await send(options.verifyUrl ?? CAPTCHA_SITEVERIFY_URL, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new CaptchaVerificationError(
        "HTTP_ERROR",
        `captcha verification endpoint answered ${response.status}`,
        { status: response.status },
      );
    }
    text = await response.text();
  } catch (error) {
    if (error instanceof CaptchaVerificationError) throw error;
    if (signal.aborted) {
      throw new CaptchaVerificationError(
        "TIMEOUT",
        `captcha verification got no reply within ${timeoutMs} ms`,
        { cause: error },
      );
    }
    throw new CaptchaVerificationError(
      "NETWORK_ERROR",
      "captcha verification endpoint unreachable",
      { cause: error },
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CaptchaVerificationError(
      "INVALID_RESPONSE",
      "captcha verification endpoint answered with something that is not JSON",
      { cause: error },
    );
  }
}

function judge(reply: unknown, options: VerifyCaptchaOptions, key: string): CaptchaVerdict {
  const shape = readVerdict(reply);
  const verdict: CaptchaVerdict = {
    success: shape.success,
    errorCodes: [...shape.errorCodes],
    idempotencyKey: key,
  };
  for (const field of ["challengeTs", "hostname", "action", "cdata"] as const) {
    const value = shape[field];
    if (value !== undefined) verdict[field] = value;
  }
  if (!verdict.success) return verdict;
  if (options.expectedAction !== undefined && verdict.action !== options.expectedAction) {
    verdict.success = false;
    verdict.errorCodes.push("action-mismatch");
  }
  const hostnames =
    options.expectedHostname === undefined ? undefined : [options.expectedHostname].flat();
  if (hostnames && !(verdict.hostname !== undefined && hostnames.includes(verdict.hostname))) {
    verdict.success = false;
    verdict.errorCodes.push("hostname-mismatch");
  }
  return verdict;
}

interface ReplyShape {
  success: boolean;
  errorCodes: string[];
  challengeTs: string | undefined;
  hostname: string | undefined;
  action: string | undefined;
  cdata: string | undefined;
}

function readVerdict(reply: unknown): ReplyShape {
  const malformed = (why: string) =>
    new CaptchaVerificationError("INVALID_RESPONSE", `captcha verdict is malformed: ${why}`);
  if (typeof reply !== "object" || reply === null || Array.isArray(reply)) {
    throw malformed("not an object");
  }
  const record = reply as Record<string, unknown>;
  if (typeof record.success !== "boolean") throw malformed("`success` is not a boolean");
  const codes = record["error-codes"] ?? [];
  if (!Array.isArray(codes) || !codes.every((code) => typeof code === "string")) {
    throw malformed("`error-codes` is not a list of strings");
  }
  const text = (name: string): string | undefined => {
    const value = record[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") throw malformed(`\`${name}\` is not a string`);
    return value;
  };
  return {
    success: record.success,
    errorCodes: codes,
    challengeTs: text("challenge_ts"),
    hostname: text("hostname"),
    action: text("action"),
    cdata: text("cdata"),
  };
}

function refused(idempotencyKey: string, code: string): CaptchaVerdict {
  return { success: false, errorCodes: [code], idempotencyKey };
}

function isTransient(error: unknown): boolean {
  if (!(error instanceof CaptchaVerificationError)) return false;
  if (error.code === "NETWORK_ERROR") return true;
  return error.code === "HTTP_ERROR" && (error.status ?? 0) >= 500;
}
