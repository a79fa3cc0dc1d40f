/**
 * Names instead of bare ids (issue 52 point 9): an audit line about a user
 * ("added <id> as member") names that user by name and email, linked to
 * them, and a call's details name its user caller the same way; the Logs
 * list names its callers (a user, an API key's owner) from one batched
 * lookup of the page's users; the user's
 * drawer lists the organizations they belong to, each leading to it. At
 * laptop and phone widths, axe-clean.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { CallRecord } from "../../ui/api/log-types.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { dialog, expectNoSidewaysScroll, signedInAt, VIEWPORTS } from "./support/dashboard-page.ts";
import { adminInit, type RunningApp } from "./support/example-app.ts";
import { type SeededUser, signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/** POSTs to an admin route (relative to `/_svc/admin/auth/`), failing loudly on an unexpected status. */
async function adminPost<T>(app: RunningApp, path: string, body: object): Promise<T> {
  const response = await fetch(
    `${app.url}/_svc/admin/auth/${path}`,
    adminInit({
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as T;
}

/** The first record the logs API holds for `query` (and `which`), once written (~100 ms after the call). */
async function recordOf(
  app: RunningApp,
  query: string,
  which: (record: CallRecord) => boolean = () => true,
): Promise<CallRecord> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await fetch(`${app.url}/_svc/admin/logs?${query}`, adminInit());
    const { records } = (await response.json()) as { records: CallRecord[] };
    const found = records.find(which);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no record for ${query}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!ready)("names instead of bare ids", () => {
  const { app, browser } = browserTestbed();
  const member = {} as SeededUser;
  let organizationId = "";
  let call: CallRecord;
  let keyCall: CallRecord;
  let keyId = "";

  beforeAll(async () => {
    const owner = await signUp(app, { label: "names-owner" });
    Object.assign(member, await signUp(app, { label: "names-member", name: "Zoë Ñame" }));
    const { organization } = await adminPost<{ organization: { id: string } }>(
      app,
      "organizations",
      { name: "Names Inc", slug: `names-${randomUUID().slice(0, 8)}`, ownerId: owner.id },
    );
    organizationId = organization.id;
    await adminPost(app, `organizations/${organizationId}/members`, {
      userId: member.id,
      role: "member",
    });
    const ping = await fetch(`${app.url}/_svc/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: member.cookie },
      body: JSON.stringify({ path: "hello:ping", args: { name: "names" } }),
    });
    expect(ping.status).toBe(200);
    call = await recordOf(app, `function=hello:ping&user=${encodeURIComponent(member.id)}`);
    const { apiKey, key } = await adminPost<{ apiKey: { id: string }; key: string }>(
      app,
      "api-keys",
      { ownerUserId: member.id, name: "names key", scopes: ["*"] },
    );
    keyId = apiKey.id;
    const listed = await fetch(`${app.url}/_svc/rest/messages/list`, {
      headers: { "x-api-key": key },
    });
    expect(listed.status).toBe(200);
    keyCall = await recordOf(
      app,
      "limit=100",
      (record) => record.caller.kind === "apiKey" && record.caller.id === keyId,
    );
  });

  const label = () => `${member.name} (${member.email})`;
  const href = () => `/_svc/dashboard/users/${encodeURIComponent(member.id)}`;

  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    it(`an audit line names the member it added, linked (${width})`, async () => {
      const page = await signedInAt(
        browser.context,
        app,
        `audit?target=${encodeURIComponent(organizationId)}&action=member.add`,
      );
      await page.setViewportSize(viewport);
      const note = page.locator(".audit-note").filter({ hasText: "added" }).first();
      await note.waitFor();
      expect(await note.textContent()).toBe(`added ${label()} as member`);
      expect(await note.getByRole("link", { name: label() }).getAttribute("href")).toBe(href());
      // The target is the organization; the user the entry concerns is named beside it.
      const target = page.locator(".audit-target").first();
      expect(await target.getByRole("link", { name: label() }).getAttribute("href")).toBe(href());
      await expectNoSidewaysScroll(page.locator("html"));
      await expectAccessible(page, `audit, a member's name (${width})`);
      await page.close();
    });

    it(`a user's drawer lists their organizations, linked (${width})`, async () => {
      const page = await signedInAt(browser.context, app, `users/${encodeURIComponent(member.id)}`);
      await page.setViewportSize(viewport);
      const drawer = page.getByRole("dialog");
      const section = drawer.locator("section").filter({
        has: page.getByRole("heading", { name: /^Organizations/ }),
      });
      const organization = section.getByRole("link", { name: "Names Inc" });
      await organization.waitFor();
      expect(await organization.getAttribute("href")).toBe(
        `/_svc/dashboard/organizations/${encodeURIComponent(organizationId)}`,
      );
      expect(await section.locator(".list-meta").first().textContent()).toContain("member");
      await expectNoSidewaysScroll(page.locator("html"));
      await expectAccessible(page, `user drawer, organizations (${width})`);
      await organization.click();
      await expect
        .poll(() => new URL(page.url()).pathname)
        .toBe(`/_svc/dashboard/organizations/${encodeURIComponent(organizationId)}`);
      await page.close();
    });

    it(`the Logs list names its callers from one lookup, linked (${width})`, async () => {
      const page = await signedInAt(browser.context, app, "overview");
      await page.setViewportSize(viewport);
      const lookups: string[] = [];
      page.on("request", (request) => {
        const path = new URL(request.url()).pathname;
        if (path.startsWith("/_svc/admin/auth/users/")) lookups.push(path);
      });
      await page.getByRole("link", { name: "Logs", exact: true }).click();
      const row = (record: CallRecord) =>
        page.locator(`tr[data-request-id="${record.requestId}"] td[data-label="Caller"]`);
      const byUser = row(call).getByRole("link", { name: member.name, exact: true });
      await byUser.waitFor();
      expect(await byUser.getAttribute("href")).toBe(href());
      expect(await byUser.getAttribute("title")).toBe(`${member.email} · open user ${member.id}`);
      expect(await row(call).textContent()).toBe(`${member.name} (user)`);
      // An API key's caller is named by its owner.
      const byKey = row(keyCall).getByRole("link", { name: member.name, exact: true });
      await byKey.waitFor();
      expect(await byKey.getAttribute("href")).toBe(href());
      expect(await row(keyCall).textContent()).toBe(`key ${keyId} of ${member.name}`);
      // One batched lookup for the page's users, never one request per row.
      expect(lookups).toEqual(["/_svc/admin/auth/users/names"]);
      await expectNoSidewaysScroll(page.locator("html"));
      await expectAccessible(page, `logs, callers by name (${width})`);
      await byUser.click();
      await page.getByRole("dialog").getByText(member.email).first().waitFor();
      expect(new URL(page.url()).pathname).toBe(href());
      await page.close();
    });

    it(`a call's details name its caller, linked (${width})`, async () => {
      const page = await signedInAt(
        browser.context,
        app,
        `logs?record=${encodeURIComponent(call.requestId)}`,
      );
      await page.setViewportSize(viewport);
      const detail = dialog(page, "Call hello:ping");
      const caller = detail.getByRole("link", { name: label() });
      await caller.waitFor();
      expect(await caller.getAttribute("href")).toBe(href());
      await expectAccessible(page, `logs, a call's caller by name (${width})`);
      await caller.click();
      await page.getByRole("dialog").getByText(member.email).first().waitFor();
      expect(new URL(page.url()).pathname).toBe(href());
      await page.close();
    });
  }
});
