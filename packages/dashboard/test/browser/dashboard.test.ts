/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core)
 * against the example app under `wrangler dev`, seeded through better-auth's
 * own endpoints. Each test asserts what the page shows and what the admin API
 * then reports. They need the admin API in the example app; without it
 * `startExampleApp` fails with a message saying so.
 */
import { describe, expect, it } from "vitest";
import type {
  Capabilities,
  Invitation,
  Member,
  Organization,
  Session,
  User,
  UserDetail,
  UserPage,
} from "../../ui/api/types.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import {
  dialog,
  expectNoSidewaysScroll,
  expectNotOnPage,
  focusedName,
  openDashboard,
  openUser,
  screenshot,
  signedInAt,
  signedInPage,
  signInWith,
  storedTokens,
  VIEWPORTS,
} from "./support/dashboard-page.ts";
import { ADMIN_TOKEN, adminGet, adminInit, OPERATOR } from "./support/example-app.ts";
import { seedOrganization, sessionIsLive, signIn, signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

describe.skipIf(!ready)("the dashboard in Chromium against the example app", () => {
  const { app, browser } = browserTestbed();

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
    await start.getByRole("button", { name: "Get a token for API use" }).click();
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

  it("creates, edits and deletes an organization, at desktop and phone width", async () => {
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      const owner = await signUp(app, { label: `org-owner-${width}` });
      const slug = `made-${width}-${owner.id.slice(0, 6).toLowerCase()}`;
      const page = await signedInAt(browser.context, app, "organizations");
      await page.setViewportSize(viewport);
      const desktop = width === "desktop";

      await page.getByRole("button", { name: "New organization" }).click();
      const create = dialog(page, "New organization");
      await create.getByRole("button", { name: "Create organization" }).click();
      await create.getByText("Enter a name.").waitFor();
      await create.getByText("Pick the owner.").waitFor();
      await create.getByLabel("Name").fill(`Made ${width}`);
      expect(await create.getByLabel("Slug").inputValue()).toBe(`made-${width}`);
      await create.getByLabel("Slug").fill(slug);
      await create.getByLabel(/^Metadata/).fill("{plan: pro}");
      await create.getByRole("searchbox", { name: "Owner" }).fill(owner.email);
      await create.getByRole("button", { name: new RegExp(owner.email) }).click();
      await create.getByRole("button", { name: "Create organization" }).click();
      await create.getByText(/^This is not valid JSON/).waitFor();
      if (desktop) await expectAccessible(page, "new organization with problems");
      await create.getByLabel(/^Metadata/).fill('{"plan": "pro"}');
      await create.getByRole("button", { name: "Create organization" }).click();
      await page.getByRole("heading", { name: `Made ${width}`, level: 1 }).waitFor();
      await expectNoSidewaysScroll(page.locator("body"));
      const { organizations } = await adminGet<{ organizations: Organization[] }>(
        app,
        `organizations?search=${slug}`,
      );
      expect(organizations).toEqual([
        expect.objectContaining({ slug, metadata: { plan: "pro" }, memberCount: 1 }),
      ]);
      const orgId = organizations[0]!.id;

      await page.getByRole("button", { name: "Edit", exact: true }).click();
      const edit = dialog(page, "Edit organization");
      await edit.getByLabel("Slug").fill("Not A Slug");
      await edit.getByRole("button", { name: "Save changes" }).click();
      await edit.getByText("Use lowercase letters, digits and single hyphens").waitFor();
      if (desktop) await expectAccessible(page, "edit organization");
      await edit.getByLabel("Slug").fill(slug);
      await edit.getByLabel("Name").fill(`Renamed ${width}`);
      await edit.getByLabel(/^Metadata/).fill("");
      await edit.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("heading", { name: `Renamed ${width}`, level: 1 }).waitFor();
      const edited = await adminGet<{ organization: Organization }>(app, `organizations/${orgId}`);
      expect(edited.organization).toMatchObject({ name: `Renamed ${width}`, metadata: null });

      await page.getByRole("button", { name: "Delete organization" }).click();
      const remove = dialog(page, "Delete this organization?");
      await remove.waitFor();
      expect(await focusedName(page)).toBe("Cancel");
      expect(await remove.textContent()).toContain("1 member");
      if (desktop) await expectAccessible(page, "delete organization");
      const confirm = remove.getByRole("button", { name: "Delete organization" });
      expect(await confirm.isDisabled()).toBe(true);
      await remove.getByRole("textbox").fill(slug);
      await confirm.click();
      await page.getByRole("heading", { name: "Organizations", level: 1 }).waitFor();
      await expect.poll(() => focusedName(page)).toBe("Organizations");
      const gone = await fetch(`${app.url}/_svc/admin/auth/organizations/${orgId}`, adminInit());
      expect(gone.status).toBe(404);
      await page.close();
    }
  });

  it("manages members and invitations, at desktop and phone width", async () => {
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      const org = await seedOrganization(app, `manage-${width}`);
      const joiner = await signUp(app, { label: `joiner-${width}` });
      const page = await signedInAt(browser.context, app, `organizations/${org.id}`);
      await page.setViewportSize(viewport);
      const desktop = width === "desktop";
      const rows = page.locator("table tbody tr");
      const row = (email: string) => page.getByRole("row").filter({ hasText: email });
      const membersApi = async () =>
        (await adminGet<{ members: Member[] }>(app, `organizations/${org.id}/members`)).members;
      await expect.poll(() => rows.count()).toBe(2);

      await page.getByRole("button", { name: "Add member" }).click();
      const add = dialog(page, "Add member");
      await add.getByLabel("Email of an existing user").fill(joiner.email);
      await add.getByLabel("Role").fill("captain");
      await add.getByRole("button", { name: "Add member" }).click();
      await add.getByText(/^Unknown role "captain" \(known: owner, admin, member/).waitFor();
      expect(await add.getByLabel("Role").getAttribute("aria-invalid")).toBe("true");
      if (desktop) await expectAccessible(page, "add member with an unknown role");
      await add.getByLabel("Role").fill("admin");
      await add.getByRole("button", { name: "Add member" }).click();
      await row(joiner.email).waitFor();
      await expect.poll(() => page.getByText("3 members").count()).toBe(1);

      await page.getByRole("button", { name: `Change role of ${org.owner.email}` }).click();
      const role = dialog(page, `Role of ${org.owner.email}`);
      await role.getByLabel("Role").fill("member");
      await role.getByRole("button", { name: "Save role" }).click();
      await role.getByText("Cannot take the role from the organization's last owner").waitFor();
      if (desktop) await expectAccessible(page, "member role refused");
      await role.getByRole("button", { name: "Cancel" }).click();

      await page.getByRole("button", { name: `Remove ${org.owner.email}` }).click();
      const refuse = dialog(page, `Remove ${org.owner.email}?`);
      await refuse.waitFor();
      expect(await focusedName(page)).toBe("Cancel");
      await refuse.getByRole("button", { name: "Remove member" }).click();
      await refuse.getByRole("alert").getByText("last owner").waitFor();
      await refuse.getByRole("button", { name: "Cancel" }).click();

      await page.getByRole("button", { name: `Change role of ${joiner.email}` }).click();
      await dialog(page, `Role of ${joiner.email}`).getByLabel("Role").fill("member");
      await dialog(page, `Role of ${joiner.email}`)
        .getByRole("button", { name: "Save role" })
        .click();
      await row(joiner.email).getByText("member", { exact: true }).waitFor();
      await page.getByRole("button", { name: `Remove ${joiner.email}` }).click();
      await dialog(page, `Remove ${joiner.email}?`)
        .getByRole("button", { name: "Remove member" })
        .click();
      await row(joiner.email).waitFor({ state: "detached" });
      await expect.poll(() => focusedName(page)).toMatch(/^Members/);
      expect((await membersApi()).map((member) => member.user.email)).not.toContain(joiner.email);

      await page.getByRole("link", { name: "Invitations" }).click();
      const invitee = `invitee-${width}-${joiner.id.slice(0, 6).toLowerCase()}@example.com`;
      await page.getByRole("button", { name: "Invite by email" }).click();
      const invite = dialog(page, "Invite by email");
      await invite.getByLabel("Email").fill("not-an-email");
      await invite.getByRole("button", { name: "Send invitation" }).click();
      await invite.getByText("Enter an email address like ann@example.com.").waitFor();
      await invite.getByLabel("Email").fill(invitee);
      await invite.getByRole("button", { name: "Send invitation" }).click();
      const created = dialog(page, "Invitation created");
      await created.getByText("No email was sent.").waitFor();
      expect(await created.textContent()).toContain(`tell ${invitee} yourself`);
      if (desktop) await expectAccessible(page, "invitation not emailed");
      await created.getByRole("button", { name: "Done" }).click();
      await row(invitee).getByText("pending").waitFor();

      await page.getByRole("button", { name: `Resend the invitation of ${invitee}` }).click();
      await page.getByText(`The invitation of ${invitee} was renewed.`).waitFor();
      await page.getByRole("button", { name: `Cancel the invitation of ${invitee}` }).click();
      const cancel = dialog(page, `Cancel the invitation of ${invitee}?`);
      await cancel.waitFor();
      expect(await focusedName(page)).toBe("Cancel");
      if (desktop) await expectAccessible(page, "cancel invitation");
      await cancel.getByRole("button", { name: "Cancel invitation" }).click();
      await row(invitee).getByText("canceled", { exact: true }).waitFor();
      await expect.poll(() => focusedName(page)).toMatch(/^Invitations/);
      await expectNoSidewaysScroll(page.locator("body"));
      if (desktop) await expectAccessible(page, "invitations with actions");
      const { invitations } = await adminGet<{ invitations: Invitation[] }>(
        app,
        `organizations/${org.id}/invitations`,
      );
      expect(invitations.find((invitation) => invitation.email === invitee)?.status).toBe(
        "canceled",
      );
      await page.close();
    }
  });

  it("answers 401 on the admin API without the token, for the page's own origin too", async () => {
    const response = await fetch(`${app.url}/_svc/admin/auth/users`);
    expect(response.status).toBe(401);
    const withToken = await fetch(`${app.url}/_svc/admin/auth/users`, adminInit());
    expect(((await withToken.json()) as { users: User[] }).users.length).toBeGreaterThan(0);
  });
});
