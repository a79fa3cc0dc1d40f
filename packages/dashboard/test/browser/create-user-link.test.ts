/**
 * "Create user" that sends a sign-in link (issue 17): the New user dialog
 * offers the links the app can send (the example app has the magic link
 * plugin and a password-reset sender, both printing the link), the toast
 * says what went to whom, and the link really lets the new user in. The
 * user drawer sends a link to an existing user. axe-core checks each new
 * screen in light and dark mode.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { AuditEntry, User } from "../../ui/api/types.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import {
  dialog,
  drawerOf,
  expectUncovered,
  signedInAt,
  VIEWPORTS,
} from "./support/dashboard-page.ts";
import { adminGet } from "./support/example-app.ts";
import { sessionIsLive, signUp, uniqueEmail } from "./support/seed.ts";
import { sentLink } from "./support/sent-links.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

describe.skipIf(!ready)("creating a user who gets a sign-in link", () => {
  const { app, browser } = browserTestbed();

  const toast = (page: Page, text: string) => page.locator(".toast", { hasText: text });

  const auditOf = async (userId: string, action: string) =>
    (await adminGet<{ entries: AuditEntry[] }>(app, `audit?target=${userId}&action=${action}`))
      .entries;

  /** The user with this email, as the admin API lists it. */
  const userByEmail = async (email: string) => {
    const { users } = await adminGet<{ users: User[] }>(
      app,
      `users?search=${encodeURIComponent(email)}`,
    );
    expect(users.map((user) => user.email)).toEqual([email]);
    return users[0]!;
  };

  /** Opens the New user dialog on the users list and fills email and name. */
  const newUserDialog = async (page: Page, email: string) => {
    await page.getByRole("button", { name: "New user" }).click();
    const create = dialog(page, "New user");
    await create.getByLabel("Email").fill(email);
    await create.getByLabel("Name").fill("Linked User");
    return create;
  };

  it("sends a magic link by default that signs the new user in, at desktop and phone width", async () => {
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      const page = await signedInAt(browser.context, app, "users");
      await page.setViewportSize(viewport);
      const email = uniqueEmail(`magic-${width}`);
      const create = await newUserDialog(page, email);
      expect(await create.getByRole("radio", { name: "Send a magic link" }).isChecked()).toBe(true);
      await create.getByRole("radio", { name: "Send a link to set a password" }).waitFor();
      expect(await create.getByText("will have no way to sign in").count()).toBe(0);
      await expectAccessible(page, `new user with sign-in links (${width})`);

      await create.getByRole("button", { name: "Create user" }).click();
      const sent = toast(page, `Created ${email}. Emailed a magic link to ${email}`);
      await sent.waitFor();
      await expectUncovered(sent);

      const user = await userByEmail(email);
      expect(user.emailVerified).toBe(false);
      expect((await auditOf(user.id, "user.create"))[0]?.detail).toBe(
        `created ${email}; magic link sent to ${email}`,
      );
      // Following the printed link is a sign-in: better-auth sets a live session.
      const link = await sentLink(app, "magic link", email);
      const followed = await fetch(link, { redirect: "manual" });
      expect(followed.status).toBe(302);
      const cookie = followed.headers
        .getSetCookie()
        .map((pair) => pair.split(";")[0])
        .join("; ");
      expect(await sessionIsLive(app, cookie)).toBe(true);
      expect((await userByEmail(email)).emailVerified).toBe(true);
      await page.close();
    }
  });

  it("emails a link to set a password, which the user follows to choose one, at desktop and phone width", async () => {
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      const page = await signedInAt(browser.context, app, "users");
      await page.setViewportSize(viewport);
      const email = uniqueEmail(`setup-${width}`);
      const create = await newUserDialog(page, email);
      await create.getByRole("radio", { name: "Send a link to set a password" }).check();
      await create.getByRole("button", { name: "Create user" }).click();
      await toast(page, `Created ${email}. Emailed a link to set a password to ${email}`).waitFor();

      const user = await userByEmail(email);
      const link = await sentLink(app, "password reset link", email);
      const token = link.pathname.split("/").at(-1)!;
      const reset = await fetch(`${app.url}/api/auth/reset-password`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: app.url },
        body: JSON.stringify({ token, newPassword: "chosen-by-the-user-17" }),
      });
      expect(reset.status).toBe(200);
      const signIn = await fetch(`${app.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: app.url },
        body: JSON.stringify({ email, password: "chosen-by-the-user-17" }),
      });
      expect(signIn.status).toBe(200);
      expect(((await signIn.json()) as { user: { id: string } }).user.id).toBe(user.id);
      await page.close();
    }
  });

  it("offers no link beside a typed password, and sends nothing when told not to", async () => {
    const page = await signedInAt(browser.context, app, "users");
    const email = uniqueEmail("no-link");
    const create = await newUserDialog(page, email);
    await create.getByLabel(/^Password/).fill("a-typed-password-17");
    expect(await create.getByRole("radio").count()).toBe(0);
    await create.getByLabel(/^Password/).fill("");
    await create.getByRole("radio", { name: "Send nothing" }).check();
    // The app has magic links, so the user still has a way in: no warning, a plain note.
    await create.getByText("No email is sent.").waitFor();
    expect(await create.getByText("will have no way to sign in").count()).toBe(0);
    await expectAccessible(page, "new user without a link");
    await create.getByRole("button", { name: "Create user" }).click();
    await toast(page, `Created ${email}`).waitFor();
    expect(await toast(page, "Emailed").count()).toBe(0);
    const user = await userByEmail(email);
    expect((await auditOf(user.id, "user.create"))[0]?.detail).toBe(`created ${email}`);
    await page.close();
  });

  it("sends a sign-in link to an existing user from the drawer, at desktop and phone width", async () => {
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      const user = await signUp(app, { label: `resend-${width}` });
      const page = await drawerOf(browser.context, app, user);
      await page.setViewportSize(viewport);
      await page.getByRole("button", { name: "Send sign-in link" }).click();
      const send = dialog(page, "Send sign-in link");
      expect(await send.getByRole("radio", { name: "Send a magic link" }).isChecked()).toBe(true);
      // A signed-up user's email is unverified: the dialog says what the link would remove.
      await send.getByText("removes the password, linked accounts and sessions").waitFor();
      await expectAccessible(page, `send sign-in link (${width})`);
      await send.getByRole("radio", { name: "Send a link to set a password" }).check();
      expect(await send.getByText("removes the password").count()).toBe(0);
      await send.getByRole("radio", { name: "Send a magic link" }).check();
      await send.getByRole("button", { name: "Send link" }).click();
      const sent = toast(page, `Emailed a magic link to ${user.email}`);
      await sent.waitFor();
      await expectUncovered(sent);
      expect(await auditOf(user.id, "user.sign-in-link")).toMatchObject([
        { outcome: "ok", detail: `magic link sent to ${user.email}` },
      ]);
      await sentLink(app, "magic link", user.email);
      await page.close();
    }
  });
});
