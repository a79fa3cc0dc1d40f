/**
 * Ids that lead somewhere (issue 52 point 9): a document field holding a
 * user's id (the example app's `messages.author`, which its policies compare
 * with the caller's user id) links to that user, in the grid's cell and in
 * the document's drawer; following it opens the user, whose drawer leads
 * on to their calls. The Logs page's
 * caller filter takes an email, and a call's user caller links to that
 * user. At laptop and phone widths, axe-clean.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { dialog, expectNoSidewaysScroll, signedInAt, VIEWPORTS } from "./support/dashboard-page.ts";
import { adminInit, type RunningApp } from "./support/example-app.ts";
import { type SeededUser, signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/** `user` sends one message into `shard`, then the registry lists the shard. */
async function messageIn(app: RunningApp, user: SeededUser, shard: string): Promise<void> {
  const response = await fetch(`${app.url}/_svc/rpc?shardKey=${shard}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: user.cookie, origin: app.url },
    body: JSON.stringify({ path: "messages:send", args: { body: "hello", channel: "general" } }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const listed = await fetch(`${app.url}/_svc/admin/data/shards/${shard}`, adminInit());
    if (listed.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the shard registry never listed ${shard}`);
}

describe.skipIf(!ready)("ids that lead somewhere", () => {
  const { app, browser } = browserTestbed();
  const shard = `room-ids-${randomUUID().slice(0, 8)}`;
  const author = {} as SeededUser;

  beforeAll(async () => {
    Object.assign(author, await signUp(app, { label: "ids-author" }));
    await messageIn(app, author, shard);
  });

  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    it(`links an author id to its user, from the cell and the drawer (${width})`, async () => {
      const page = await signedInAt(browser.context, app, `data/${shard}/messages`);
      await page.setViewportSize(viewport);
      const cell = page.locator(".data-grid tbody").getByRole("link", { name: author.id });
      await cell.waitFor();
      expect(await cell.getAttribute("href")).toBe(
        `/_svc/dashboard/users/${encodeURIComponent(author.id)}`,
      );
      await expectNoSidewaysScroll(page.locator("main"));
      await expectAccessible(page, `data, a user id cell (${width})`);

      await page.locator(".data-grid .col-id button").first().click();
      const drawer = dialog(page, "messages document");
      const link = drawer.getByRole("link", { name: author.id });
      await expectAccessible(page, `data, a document's author (${width})`);
      await link.click();
      await page.getByRole("dialog").getByText(author.email).first().waitFor();
      expect(new URL(page.url()).pathname).toBe(
        `/_svc/dashboard/users/${encodeURIComponent(author.id)}`,
      );
      // The user's drawer leads on to their own calls.
      await page.getByRole("link", { name: "see their calls in Logs" }).click();
      await page.getByRole("heading", { name: "Logs", level: 1 }).waitFor();
      expect(new URL(page.url()).searchParams.get("user")).toBe(author.id);
      await page
        .locator(".calls-table tbody tr")
        .filter({ hasText: "messages:send" })
        .first()
        .waitFor();
      await page.close();
    });

    it(`finds a user's calls by email in the Logs caller filter (${width})`, async () => {
      const page = await signedInAt(browser.context, app, "logs");
      await page.setViewportSize(viewport);
      await page.locator(".calls-table, .state-empty").first().waitFor();
      await page.getByLabel("Caller").fill(author.email);
      await expect.poll(() => new URL(page.url()).searchParams.get("user")).toBe(author.email);
      const row = page.locator(".calls-table tbody tr").filter({ hasText: "messages:send" });
      await row.first().waitFor();
      const callers = await page.locator('.calls-table td[data-label="Caller"]').allTextContents();
      expect(new Set(callers)).toEqual(new Set([`${author.id} (user)`]));
      const caller = row.first().getByRole("link", { name: author.id });
      expect(await caller.getAttribute("href")).toBe(
        `/_svc/dashboard/users/${encodeURIComponent(author.id)}`,
      );
      await expectNoSidewaysScroll(page.locator("html"));
      await expectAccessible(page, `logs, calls by email (${width})`);
      await page.close();
    });
  }
});
