import { describe, expect, it } from "vitest";
import {
  CAPTCHA_TEST_SECRET_ALWAYS_PASSES,
  CaptchaVerificationError,
  type VerifyCaptchaOptions,
  verifyCaptcha,
} from "../src/index.ts";
import { receivedByStub, siteverifyUrl } from "./fixture/stub.ts";
import { rpc } from "./http.ts";

function verify(token: string, options: Partial<VerifyCaptchaOptions> = {}) {
  return verifyCaptcha({ secret: "stub-secret", token, verifyUrl: siteverifyUrl, ...options });
}

async function sentWithKey(key: string) {
  return (await receivedByStub()).filter((request) => request.fields.idempotency_key === key);
}

describe("verifyCaptcha against a siteverify server", () => {
  it("returns a passing verdict and posts the siteverify form fields", async () => {
    const key = crypto.randomUUID();
    const verdict = await verify("pass", { remoteip: "203.0.113.7", idempotencyKey: key });
    expect(verdict).toEqual({
      success: true,
      errorCodes: [],
      challengeTs: "2026-11-23T10:00:00.000Z",
      hostname: "svc.test",
      action: "signup",
      cdata: "",
      idempotencyKey: key,
    });
    expect(await sentWithKey(key)).toEqual([
      {
        contentType: "application/x-www-form-urlencoded",
        fields: {
          secret: "stub-secret",
          response: "pass",
          remoteip: "203.0.113.7",
          idempotency_key: key,
        },
      },
    ]);
  });

  it("sends a fresh UUID idempotency key when none is given", async () => {
    const verdict = await verify("pass");
    expect(verdict.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
    expect(await sentWithKey(verdict.idempotencyKey)).toHaveLength(1);
  });

  it("returns a failed verdict, without throwing, for a bad token", async () => {
    await expect(verify("fail")).resolves.toMatchObject({
      success: false,
      errorCodes: ["invalid-input-response"],
    });
  });

  it("fails the verdict when the action or hostname is not the expected one", async () => {
    await expect(verify("pass", { expectedAction: "login" })).resolves.toMatchObject({
      success: false,
      errorCodes: ["action-mismatch"],
    });
    await expect(verify("pass", { expectedHostname: ["app.example"] })).resolves.toMatchObject({
      success: false,
      errorCodes: ["hostname-mismatch"],
    });
    await expect(
      verify("pass", { expectedAction: "signup", expectedHostname: "svc.test" }),
    ).resolves.toMatchObject({ success: true });
  });

  it("answers a missing token with a failed verdict and no request", async () => {
    const key = crypto.randomUUID();
    await expect(verify("", { idempotencyKey: key })).resolves.toMatchObject({
      success: false,
      errorCodes: ["missing-input-response"],
    });
    expect(await sentWithKey(key)).toEqual([]);
  });

  it.each([
    ["slow", "TIMEOUT", undefined],
    ["500", "HTTP_ERROR", 500],
    ["garbage", "INVALID_RESPONSE", undefined],
    ["malformed", "INVALID_RESPONSE", undefined],
  ])("throws CaptchaVerificationError for %s (%s)", async (token, code, status) => {
    const failure = verify(token, { timeoutMs: 200 });
    await expect(failure).rejects.toBeInstanceOf(CaptchaVerificationError);
    await expect(failure).rejects.toMatchObject({ code, status });
  });

  it("retries a 5xx once with the same idempotency key", async () => {
    const key = crypto.randomUUID();
    await expect(verify("500", { idempotencyKey: key })).rejects.toMatchObject({
      code: "HTTP_ERROR",
    });
    expect((await sentWithKey(key)).map((request) => request.fields.idempotency_key)).toEqual([
      key,
      key,
    ]);
  });

  it("throws NETWORK_ERROR when the endpoint cannot be reached", async () => {
    await expect(
      verify("pass", { verifyUrl: "http://127.0.0.1:1/siteverify", retries: 0 }),
    ).rejects.toMatchObject({ code: "NETWORK_ERROR" });
  });

  it("refuses the always-pass test secret in production, before any request", async () => {
    const key = crypto.randomUUID();
    const options = { secret: CAPTCHA_TEST_SECRET_ALWAYS_PASSES, idempotencyKey: key };
    await expect(verify("pass", { ...options, production: true })).rejects.toMatchObject({
      code: "MISCONFIGURED",
    });
    expect(await sentWithKey(key)).toEqual([]);
    await expect(verify("pass", options)).resolves.toMatchObject({ success: true });
  });
});

describe("verifyCaptchaMiddleware in a procedure, over RPC", () => {
  it("admits a passing token and tells the handler", async () => {
    expect(await rpc("captcha:guarded", { token: "pass" })).toEqual({
      status: 200,
      body: { value: { admitted: true, captcha: { verified: true } } },
    });
  });

  it("refuses a failed verdict with FORBIDDEN, fail-open or not", async () => {
    for (const path of ["captcha:guarded", "captcha:guardedFailOpen"]) {
      expect(await rpc(path, { token: "fail" })).toMatchObject({
        status: 403,
        body: { code: "FORBIDDEN", detail: "Captcha verification failed." },
      });
    }
  });

  it.each([
    ["slow", "TIMEOUT"],
    ["500", "HTTP_ERROR"],
    ["garbage", "INVALID_RESPONSE"],
  ])(
    "answers UNAVAILABLE when the service is down (%s), and admits with failOpen",
    async (token, error) => {
      expect(await rpc("captcha:guarded", { token })).toMatchObject({
        status: 503,
        body: { code: "UNAVAILABLE" },
      });
      expect(await rpc("captcha:guardedFailOpen", { token })).toEqual({
        status: 200,
        body: { value: { admitted: true, captcha: { verified: false, error } } },
      });
    },
  );

  it("validates the arguments before the middleware reads the token", async () => {
    expect(await rpc("captcha:guarded", { token: 42 })).toMatchObject({
      status: 400,
      body: { code: "VALIDATION_FAILED" },
    });
  });
});
