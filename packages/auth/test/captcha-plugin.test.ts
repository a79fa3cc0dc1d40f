import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createAuth, ensureMigrated, handleAuthRequest, svcDatabaseAdapter } from "../src/index.ts";
import { captcha } from "../src/plugins.ts";
import { TEST_ORIGIN, TEST_SECRET } from "./fixture/constants.ts";
import { receivedByStub, siteverifyUrl } from "./fixture/stub.ts";
import { freshEmail } from "./http.ts";

const PASSWORD = "a long enough password";

async function authWithCaptcha(endpoints?: string[]) {
  const auth = createAuth({
    secret: TEST_SECRET,
    baseURL: TEST_ORIGIN,
    database: svcDatabaseAdapter(env.DB),
    emailAndPassword: { enabled: true, sendResetPassword: async () => {} },
    plugins: [
      captcha({
        provider: "cloudflare-turnstile",
        secretKey: "stub-secret",
        siteVerifyURLOverride: siteverifyUrl,
        ...(endpoints ? { endpoints } : {}),
      }),
    ],
  });
  await ensureMigrated(auth);
  return auth;
}

async function post(
  auth: Awaited<ReturnType<typeof authWithCaptcha>>,
  endpoint: string,
  body: unknown,
  captchaToken?: string,
): Promise<{ status: number; code: string | undefined }> {
  const headers = new Headers({ "content-type": "application/json", origin: TEST_ORIGIN });
  if (captchaToken !== undefined) headers.set("x-captcha-response", captchaToken);
  const request = new Request(`${TEST_ORIGIN}/api/auth${endpoint}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  const response = await handleAuthRequest(auth, request);
  if (!response) throw new Error(`${endpoint} was not routed to better-auth`);
  const json = (await response.json()) as { code?: string };
  return { status: response.status, code: json.code };
}

describe("captcha plugin", () => {
  it.each([
    ["/sign-up/email", () => ({ email: freshEmail("cap"), password: PASSWORD, name: "Cap" })],
    ["/sign-in/email", () => ({ email: freshEmail("cap"), password: PASSWORD })],
    ["/request-password-reset", () => ({ email: freshEmail("cap"), redirectTo: "/reset" })],
  ])("blocks %s without x-captcha-response by default", async (endpoint, body) => {
    const auth = await authWithCaptcha();
    expect(await post(auth, endpoint, body())).toEqual({ status: 400, code: "MISSING_RESPONSE" });
    expect(await post(auth, endpoint, body(), "fail")).toEqual({
      status: 403,
      code: "VERIFICATION_FAILED",
    });
  });

  it("lets a request through once the provider (the local stub) passes the token", async () => {
    const auth = await authWithCaptcha();
    const email = freshEmail("cap-pass");
    const signUp = await post(
      auth,
      "/sign-up/email",
      { email, password: PASSWORD, name: "P" },
      "pass",
    );
    expect(signUp.status).toBe(200);
    const sent = (await receivedByStub()).filter((request) => request.fields.response === "pass");
    expect(sent.at(-1)?.fields).toMatchObject({ secret: "stub-secret", response: "pass" });
  });

  it("gates exactly the paths given in `endpoints`", async () => {
    const auth = await authWithCaptcha(["/sign-in/email"]);
    const email = freshEmail("cap-endpoints");
    const signUp = await post(auth, "/sign-up/email", { email, password: PASSWORD, name: "E" });
    expect(signUp.status).toBe(200);
    expect(await post(auth, "/sign-in/email", { email, password: PASSWORD })).toEqual({
      status: 400,
      code: "MISSING_RESPONSE",
    });
    const reset = await post(auth, "/request-password-reset", { email, redirectTo: "/reset" });
    expect(reset.status).toBe(200);
  });
});
