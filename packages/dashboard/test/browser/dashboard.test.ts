/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core)
 * against the example app under `wrangler dev`, seeded through better-auth's
 * own endpoints. Each test asserts what the page shows and what the admin API
 * then reports. They need the admin API in the example app; without it
 * `startExampleApp` fails with a message saying so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Capabilities, Session, User, UserDetail, UserPage } from "../../ui/api/types.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { type Chromium, chromiumOrSkip, launchChromium } from "./support/chromium.ts";
import {
  dialog,
  expectNotOnPage,
  openDashboard,
  openUser,
  screenshot,
  signedInPage,
  signInWith,
  storedTokens,
} from "./support/dashboard-page.ts";
import {
  ADMIN_TOKEN,
  adminGet,
  adminInit,
  OPERATOR,
  type RunningApp,
  startExampleApp,
} from "./support/example-app.ts";
import { seedOrganization, sessionIsLive, signIn, signUp } from "./support/seed.ts";

const ready = chromiumOrSkip();

describe.skipIf(!ready)("the dashboard in Chromium against the example app", () => {
  let app: RunningApp;
  let browser: Chromium;

  beforeAll(async () => {
    app = await startExampleApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("signs in with the admin token, keeping it in sessionStorage only", async () => {
    const page = await openDashboard(browser.context, app);
    await screenshot(page, "sign-in");
    await expectAccessible(page, "sign-in");
    await signInWith(page);
    await page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
    const { total } = await adminGet<UserPage>(app, "users");
    await expect
      .poll(() => page.locator(".page-subtitle").textContent())
      .toBe(`${total.toLocaleString("en")} in total`);
    expect(await storedTokens(page)).toEqual({ session: [ADMIN_TOKEN], local: [] });
    expect(page.url()).not.toContain(ADMIN_TOKEN);
    await screenshot(page, "users");
    await expectAccessible(page, "users");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Admin token", { exact: true }).waitFor();
    expect(await storedTokens(page)).toEqual({ session: [], local: [] });
    await page.close();
  });

  it("refuses a wrong token, keeps nothing, and the API refuses it too", async () => {
    const page = await openDashboard(browser.context, app);
    await signInWith(page, "not-the-admin-token-but-long-enough-0123456789");
    await page.getByRole("alert").getByText("That admin token was not accepted").waitFor();
    expect(await storedTokens(page)).toEqual({ session: [], local: [] });
    await expectNotOnPage(page, "Sign out");
    await screenshot(page, "wrong-token");
    await expectAccessible(page, "wrong-token");
    const response = await fetch(`${app.url}/_svc/admin/auth/users`, {
      headers: { authorization: "Bearer not-the-admin-token-but-long-enough-0123456789" },
    });
    expect(response.status).toBe(401);
    await page.close();
  });

  it("returns to sign-in when the server stops accepting the stored token", async () => {
    const page = await signedInPage(browser.context, app);
    await page.evaluate(() => {
      const key = Object.keys(sessionStorage)[0]!;
      sessionStorage.setItem(key, "a-revoked-admin-token-that-is-long-0123456789");
    });
    await page.reload();
    await page.getByText("The server no longer accepts this admin token").waitFor();
    expect(await storedTokens(page)).toEqual({ session: [], local: [] });
    await page.close();
  });

  it("searches a seeded user", async () => {
    const user = await signUp(app, { label: "search", name: "Searchable Person" });
    const page = await signedInPage(browser.context, app);
    await page.getByRole("searchbox", { name: "Search users" }).fill(user.email);
    // The search lands in the URL after the typing pause; wait for it, or the
    // list below may still be the unfiltered one that happens to match.
    // Polled, not waitForURL: the list replaces its URL in place (history API), which
    // waitForURL, waiting for a navigation to load, missed under load.
    await expect
      .poll(() => new URL(page.url()).searchParams.get("search"), { timeout: 15_000 })
      .toBe(user.email);
    const rows = page.locator("table tbody tr");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain("Searchable Person");
    await page.locator(".pager-label").getByText("1–1 of 1").waitFor();
    expect(new URL(page.url()).searchParams.get("search")).toBe(user.email);
    await screenshot(page, "search");
    await expectAccessible(page, "search");

    const found = await adminGet<UserPage>(app, `users?search=${encodeURIComponent(user.email)}`);
    expect(found.total).toBe(1);
    expect(found.users.map((u) => u.id)).toEqual([user.id]);
    await page.close();
  });

  it("bans and unbans a user", async () => {
    const user = await signUp(app, { label: "ban" });
    const page = await signedInPage(browser.context, app);
    await openUser(page, user.email);
    await page.getByRole("button", { name: "Ban", exact: true }).click();
    const ban = dialog(page, /^Ban /);
    await ban.getByLabel("Reason").fill("Spam in public channels");
    await screenshot(page, "ban-dialog");
    await expectAccessible(page, "ban-dialog");
    await ban.getByRole("button", { name: "Ban user" }).click();
    await page.getByText("Banned permanently.").waitFor();
    await page.locator(".profile").getByText("Reason: Spam in public channels").waitFor();

    const banned = await adminGet<UserDetail>(app, `users/${user.id}`);
    expect(banned.user).toMatchObject({
      banned: true,
      banReason: "Spam in public channels",
      banExpires: null,
    });
    expect(banned.sessions).toEqual([]); // a ban revokes the user's sessions
    expect(await sessionIsLive(app, user.cookie)).toBe(false);

    await page.getByRole("button", { name: "Unban" }).click();
    await dialog(page, /^Unban /)
      .getByRole("button", { name: "Unban" })
      .click();
    await page.getByRole("button", { name: "Ban", exact: true }).waitFor();
    await page.getByRole("status").getByText(`Unbanned ${user.email}`).waitFor();
    const unbanned = await adminGet<UserDetail>(app, `users/${user.id}`);
    expect(unbanned.user).toMatchObject({ banned: false, banReason: null, banExpires: null });

    const { entries } = await adminGet<{ entries: { action: string; operator: string }[] }>(
      app,
      `audit?target=${user.id}`,
    );
    expect(entries.map((entry) => entry.action)).toEqual(
      expect.arrayContaining([expect.stringMatching(/unban/), expect.stringMatching(/(^|\.)ban$/)]),
    );
    expect(entries.every((entry) => entry.operator === OPERATOR)).toBe(true);
    await page.locator(".audit-entry").nth(1).waitFor(); // the drawer's history shows both
    await screenshot(page, "user-drawer");
    await expectAccessible(page, "user-drawer");
    await page.close();
  });

  it("revokes one session and leaves the other", async () => {
    const user = await signUp(app, {
      label: "sessions",
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/144.0",
    });
    const phone = await signIn(
      app,
      user,
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Mobile Safari/604.1",
    );
    const page = await signedInPage(browser.context, app);
    await openUser(page, user.email);
    const sessions = page
      .locator(".section")
      .filter({ has: page.getByRole("heading", { name: /Sessions/ }) });
    await expect.poll(() => sessions.locator(".list-item").count()).toBe(2);

    await sessions
      .locator(".list-item")
      .filter({ hasText: "Safari on iOS" })
      .getByRole("button", { name: /Revoke/ })
      .click();
    await dialog(page, "Revoke this session?")
      .getByRole("button", { name: "Revoke session" })
      .click();
    await expect.poll(() => sessions.locator(".list-item").count()).toBe(1);
    expect(await sessions.textContent()).toContain("Firefox on Linux");

    const { sessions: left } = await adminGet<{ sessions: Session[] }>(
      app,
      `users/${user.id}/sessions`,
    );
    expect(left).toHaveLength(1);
    expect(left[0]?.userAgent).toContain("Firefox");
    expect(await sessionIsLive(app, phone)).toBe(false);
    expect(await sessionIsLive(app, user.cookie)).toBe(true);
    await page.close();
  });

  it("impersonates a user, showing the token once", async () => {
    const user = await signUp(app, { label: "impersonate" });
    const page = await signedInPage(browser.context, app);
    await openUser(page, user.email);
    await page.getByRole("button", { name: "Impersonate" }).click();
    const start = dialog(page, /^Impersonate /);
    await start.getByLabel("Reason").fill("Support ticket 4821");
    await start.getByRole("button", { name: "Start impersonation" }).click();
    const shown = dialog(page, /^Impersonating /);
    const token = await shown.getByLabel("Session token").inputValue();
    expect(token.length).toBeGreaterThan(16);
    await shown.getByRole("button", { name: "Copy", exact: true }).waitFor();
    await screenshot(page, "impersonate");
    await expectAccessible(page, "impersonate");

    const sessionId = await shown.locator("code.mono").textContent();
    const { sessions } = await adminGet<{ sessions: Session[] }>(app, `users/${user.id}/sessions`);
    expect(sessions.find((session) => session.id === sessionId)?.impersonatedBy).toBe(OPERATOR);
    expect(JSON.stringify(sessions)).not.toContain(token); // lists never carry tokens
    const { entries } = await adminGet<{ entries: { action: string; reason: string | null }[] }>(
      app,
      `audit?target=${user.id}`,
    );
    expect(entries).toContainEqual(
      expect.objectContaining({
        action: expect.stringMatching(/impersonat/),
        reason: "Support ticket 4821",
      }),
    );

    await shown.getByRole("button", { name: "Done" }).click();
    await page.getByText(`Impersonated by ${OPERATOR}`).waitFor();
    await expectNotOnPage(page, token);
    const stored = await storedTokens(page);
    expect([...stored.session, ...stored.local].join()).not.toContain(token);
    await page.close();
  });

  it("opens an organization's members and invitations", async () => {
    const org = await seedOrganization(app, "orgs");
    const page = await signedInPage(browser.context, app);
    await page.getByRole("link", { name: "Organizations" }).click();
    await page.getByRole("link", { name: org.name }).click();
    await page.getByRole("heading", { name: org.name, level: 1 }).waitFor();
    const members = page.locator("table tbody tr");
    await expect.poll(() => members.count()).toBe(2);
    const text = await page.locator("table").textContent();
    expect(text).toContain(org.owner.email);
    expect(text).toContain(org.member.email);
    await screenshot(page, "organization-members");
    await expectAccessible(page, "organization-members");

    await page.getByRole("link", { name: "Invitations" }).click();
    await page
      .getByRole("row")
      .filter({ hasText: org.pendingEmail })
      .getByText("pending")
      .waitFor();
    await screenshot(page, "organization-invitations");
    await expectAccessible(page, "organization-invitations");

    const api = await adminGet<{ members: { user: { email: string } }[] }>(
      app,
      `organizations/${org.id}/members`,
    );
    expect(api.members.map((member) => member.user.email).sort()).toEqual(
      [org.owner.email, org.member.email].sort(),
    );
    const invitations = await adminGet<{ invitations: { email: string; status: string }[] }>(
      app,
      `organizations/${org.id}/invitations`,
    );
    expect(invitations.invitations).toContainEqual(
      expect.objectContaining({ email: org.pendingEmail, status: "pending" }),
    );
    const capabilities = await adminGet<Capabilities>(app, "capabilities");
    expect(capabilities.organizations).toBe(true);
    await page.close();
  });

  it("answers 401 on the admin API without the token, for the page's own origin too", async () => {
    const response = await fetch(`${app.url}/_svc/admin/auth/users`);
    expect(response.status).toBe(401);
    const withToken = await fetch(`${app.url}/_svc/admin/auth/users`, adminInit());
    expect(((await withToken.json()) as { users: User[] }).users.length).toBeGreaterThan(0);
  });
});
