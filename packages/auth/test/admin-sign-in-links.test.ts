import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { adminAuthPost, adminJson, signIn, signUp } from "./admin-http.ts";
import { adminAuth, magicLinkOutbox, passwordResetOutbox, type SentLink } from "./fixture/admin.ts";
import { cookieFrom, freshEmail } from "./http.ts";

interface Created {
  user: { id: string; email: string };
  signInLink?: {
    kind: string;
    sentTo: string;
    sent: boolean;
    error?: { code: string; message: string };
  };
}

function lastSentTo(outbox: SentLink[], email: string): SentLink | undefined {
  return outbox.filter((sent) => sent.email === email).at(-1);
}

/** Follows a magic link as a browser would: better-auth's verify endpoint sets the session cookie. */
async function followMagicLink(url: string): Promise<string> {
  const response = await exports.default.fetch(url, { redirect: "manual" });
  expect(response.status, await response.clone().text()).toBe(302);
  return cookieFrom(response);
}

async function auditOf(id: string, action: string) {
  const { entries } = await adminJson<{ entries: Record<string, unknown>[] }>(
    "GET",
    `audit?target=${id}&action=${action}`,
    200,
  );
  return entries;
}

describe("sign-in links", () => {
  it("lists the kinds this app can send in capabilities", async () => {
    const { signInLinks } = await adminJson<{ signInLinks: string[] }>("GET", "capabilities", 200);
    expect(signInLinks).toEqual(["magic-link", "password-setup"]);
  });

  it("creates a user and emails a magic link that signs them in", async () => {
    const email = freshEmail("magic");
    const created = await adminJson<Created>("POST", "users", 201, {
      body: { email, name: "Magic", signInLink: "magic-link" },
    });
    expect(created.signInLink).toEqual({ kind: "magic-link", sentTo: email, sent: true });
    const sent = lastSentTo(magicLinkOutbox, email);
    expect(sent?.url).toContain("/magic-link/verify?token=");

    const cookie = await followMagicLink(sent!.url);
    const session = await adminAuth.api.getSession({ headers: new Headers({ cookie }) });
    expect(session?.user.id).toBe(created.user.id);
    // A link is single use.
    const again = await exports.default.fetch(sent!.url, { redirect: "manual" });
    expect(again.headers.get("location")).toContain("error=INVALID_TOKEN");

    expect(await auditOf(created.user.id, "user.create")).toMatchObject([
      { outcome: "ok", detail: `created ${email}; magic link sent to ${email}` },
    ]);
  });

  it("creates a user and emails a password-setup link: they choose a password, then sign in", async () => {
    const email = freshEmail("setup");
    const created = await adminJson<Created>("POST", "users", 201, {
      body: { email, name: "Setup", signInLink: "password-setup" },
    });
    expect(created.signInLink).toEqual({ kind: "password-setup", sentTo: email, sent: true });
    expect((await signIn(email, "chosen-password-1")).status).toBe(401);

    const sent = lastSentTo(passwordResetOutbox, email);
    expect(sent?.url).toContain(`/reset-password/${sent?.token}`);
    const reset = await adminAuthPost("/reset-password", {
      token: sent!.token,
      newPassword: "chosen-password-1",
    });
    expect(reset.status, await reset.clone().text()).toBe(200);
    const { status, token } = await signIn(email, "chosen-password-1");
    expect(status).toBe(200);
    const session = await adminAuth.api.getSession({
      headers: new Headers({ authorization: `Bearer ${token}` }),
    });
    expect(session?.user.id).toBe(created.user.id);
  });

  it("refuses a kind at the field, and a password-setup link beside a password", async () => {
    const email = freshEmail("refused");
    const unknown = await adminJson<{ errors: { path: string }[] }>("POST", "users", 400, {
      body: { email, name: "Nope", signInLink: "carrier-pigeon" },
    });
    expect(unknown.errors.map((error) => error.path)).toContain("body.signInLink");
    const both = await adminJson<{ errors: { path: string; message: string }[] }>(
      "POST",
      "users",
      400,
      { body: { email, name: "Nope", password: "some-password-1", signInLink: "password-setup" } },
    );
    expect(both.errors).toEqual([
      { path: "body.signInLink", message: expect.stringContaining("a password is given") },
    ]);
    const undone = await adminJson<{ errors: { path: string; message: string }[] }>(
      "POST",
      "users",
      400,
      { body: { email, name: "Nope", password: "some-password-1", signInLink: "magic-link" } },
    );
    expect(undone.errors).toEqual([
      { path: "body.signInLink", message: expect.stringContaining("removes the password") },
    ]);
    // Nothing was created.
    const { users } = await adminJson<{ users: unknown[] }>(
      "GET",
      `users?search=${encodeURIComponent(email)}`,
      200,
    );
    expect(users).toEqual([]);
  });

  it("sends a magic link beside a password to a verified user, who keeps the password", async () => {
    const email = freshEmail("both");
    const created = await adminJson<Created>("POST", "users", 201, {
      body: {
        email,
        name: "Both",
        password: "kept-password-1",
        emailVerified: true,
        signInLink: "magic-link",
      },
    });
    expect(created.signInLink).toMatchObject({ kind: "magic-link", sent: true });
    const cookie = await followMagicLink(lastSentTo(magicLinkOutbox, email)!.url);
    const session = await adminAuth.api.getSession({ headers: new Headers({ cookie }) });
    expect(session?.user.id).toBe(created.user.id);
    expect((await signIn(email, "kept-password-1")).status).toBe(200);
  });

  it("keeps the user and says so when the app's sender fails", async () => {
    const email = freshEmail("undeliverable");
    const created = await adminJson<Created>("POST", "users", 201, {
      body: { email, name: "Bounced", signInLink: "magic-link" },
    });
    expect(created.signInLink).toEqual({
      kind: "magic-link",
      sentTo: email,
      sent: false,
      error: { code: "INTERNAL", message: "The app's email sender failed." },
    });
    await adminJson("GET", `users/${created.user.id}`, 200);
    expect(await auditOf(created.user.id, "user.create")).toMatchObject([
      {
        outcome: "ok",
        detail: `created ${email}; sending the magic link failed: The app's email sender failed.`,
      },
    ]);
    // The operator can send another kind; the failing one fails loudly and is recorded.
    await adminJson("POST", `users/${created.user.id}/sign-in-link`, 500, {
      body: { kind: "magic-link" },
    });
    expect(await auditOf(created.user.id, "user.sign-in-link")).toMatchObject([
      { outcome: "error" },
    ]);
  });

  it("sends a link again to an existing user, audited; refuses banned and unknown users", async () => {
    const email = freshEmail("resend");
    const id = await signUp(email, "first-password-1");
    const answer = await adminJson<{ signInLink: unknown }>(
      "POST",
      `users/${id}/sign-in-link`,
      200,
      {
        body: { kind: "magic-link" },
      },
    );
    expect(answer).toEqual({ signInLink: { kind: "magic-link", sentTo: email, sent: true } });
    const cookie = await followMagicLink(lastSentTo(magicLinkOutbox, email)!.url);
    const session = await adminAuth.api.getSession({ headers: new Headers({ cookie }) });
    expect(session?.user.id).toBe(id);

    await adminJson("POST", `users/${id}/sign-in-link`, 200, { body: { kind: "password-setup" } });
    expect(lastSentTo(passwordResetOutbox, email)?.token).toBeTruthy();
    const bad = await adminJson<{ errors: { path: string }[] }>(
      "POST",
      `users/${id}/sign-in-link`,
      400,
      { body: { kind: "sms" } },
    );
    expect(bad.errors.map((error) => error.path)).toEqual(["body.kind"]);
    expect(await auditOf(id, "user.sign-in-link")).toMatchObject([
      { outcome: "error" },
      { outcome: "ok", detail: `password-setup link sent to ${email}` },
      { outcome: "ok", detail: `magic link sent to ${email}` },
    ]);

    await adminJson("POST", `users/${id}/ban`, 200, { body: { reason: "spam" } });
    await adminJson("POST", `users/${id}/sign-in-link`, 409, { body: { kind: "magic-link" } });
    await adminJson("POST", "users/nobody-at-all/sign-in-link", 404, {
      body: { kind: "magic-link" },
    });
  });
});
