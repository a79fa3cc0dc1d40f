import { describe, expect, it } from "vitest";
import { authPost, call, cookieFrom, freshEmail, rpc } from "./http.ts";

const PASSWORD = "a long enough password";

async function signUp(label: string): Promise<{ email: string; userId: string }> {
  const email = freshEmail(label);
  const response = await authPost("/sign-up/email", { email, password: PASSWORD, name: label });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { user: { id: string } };
  return { email, userId: body.user.id };
}

describe("session through a cookie", () => {
  it("signs up, signs in, reads the session in a procedure over RPC, signs out", async () => {
    const { email, userId } = await signUp("cookie");

    const signIn = await authPost("/sign-in/email", { email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    const cookie = cookieFrom(signIn);
    expect(cookie).toContain("better-auth.session_token=");

    const seen = await rpc("session:whoami", {}, { cookie });
    expect(seen.status).toBe(200);
    const value = seen.body.value as { userId: string; identity: Record<string, unknown> };
    expect(value.userId).toBe(userId);
    expect(value.identity).toMatchObject({
      userId,
      user: { id: userId, email, name: "cookie", emailVerified: false },
      session: { userId },
    });
    expect(typeof (value.identity.user as { createdAt: unknown }).createdAt).toBe("string");
    expect(value.identity.session).not.toHaveProperty("token");

    const signOut = await authPost("/sign-out", {}, { cookie });
    expect(signOut.status).toBe(200);
    expect(await rpc("session:whoami", {}, { cookie })).toMatchObject({
      status: 200,
      body: { value: { userId: null, identity: null } },
    });
  });

  it("refuses a wrong password and stays anonymous", async () => {
    const { email } = await signUp("wrong");
    const signIn = await authPost("/sign-in/email", { email, password: "not the password" });
    expect(signIn.status).toBe(401);
    expect(await rpc("session:whoami", {}, { cookie: cookieFrom(signIn) })).toMatchObject({
      body: { value: { userId: null } },
    });
  });
});

describe("session through a bearer token", () => {
  it("signs in, reads the session over RPC with Authorization: Bearer, signs out", async () => {
    const { email, userId } = await signUp("bearer");
    const signIn = await authPost("/sign-in/email", { email, password: PASSWORD });
    const token = signIn.headers.get("set-auth-token");
    expect(token).toBeTruthy();
    const authorization = `Bearer ${token}`;

    expect(await rpc("session:whoami", {}, { authorization })).toMatchObject({
      status: 200,
      body: { value: { userId, identity: { userId } } },
    });

    const signOut = await authPost("/sign-out", {}, { authorization });
    expect(signOut.status).toBe(200);
    expect(await rpc("session:whoami", {}, { authorization })).toMatchObject({
      body: { value: { userId: null, identity: null } },
    });
  });

  it("treats an unknown bearer token as anonymous", async () => {
    expect(
      await rpc("session:whoami", {}, { authorization: "Bearer not-a-session-token" }),
    ).toMatchObject({ status: 200, body: { value: { userId: null } } });
  });
});

describe("ctx.authApi", () => {
  it("calls a better-auth endpoint with the caller's headers from a procedure", async () => {
    const { email, userId } = await signUp("authapi");
    const signIn = await authPost("/sign-in/email", { email, password: PASSWORD });
    const token = signIn.headers.get("set-auth-token") ?? "";
    expect(await rpc("session:mySessions", { token })).toMatchObject({
      status: 200,
      body: { value: expect.arrayContaining([userId]) },
    });
  });
});

describe("routing", () => {
  it("leaves paths outside /api/auth/ to the svc worker", async () => {
    const response = await call("/api/authx/sign-in/email", { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });
});
