/**
 * Ids that lead somewhere (issue 52 point 9): a document field holding a
 * user's id (the example app's `messages.author`, which its policies compare
 * with the caller's user id) links to that user, in the grid's cell and in
 * the document's drawer; one holding a `v.id("messages")` (a notification's
 * `messageId`) links to that message on the Data page; following it opens the user, whose drawer leads
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

/** `user` sends one message into `shard` (its id answered), then the registry lists the shard. */
async function messageIn(app: RunningApp, user: SeededUser, shard: string): Promise<string> {
  const response = await fetch(`${app.url}/_svc/rpc?shardKey=${shard}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: user.cookie, origin: app.url },
    body: JSON.stringify({ path: "messages:send", args: { body: "hello", channel: "general" } }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const { value: id } = (await response.json()) as { value: string };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const listed = await fetch(`${app.url}/_svc/admin/data/shards/${shard}`, adminInit());
    if (listed.status === 200) return id;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the shard registry never listed ${shard}`);
}

describe.skipIf(!ready)("ids that lead somewhere", () => {
  const { app, browser } = browserTestbed();
  const shard = `room-ids-${randomUUID().slice(0, 8)}`;
  const author = {} as SeededUser;
  let messageId = "";

  beforeAll(async () => {
    Object.assign(author, await signUp(app, { label: "ids-author" }));
    messageId = await messageIn(app, author, shard);
    // A notification whose `messageId` is a `v.id("messages")`, written as the operator.
    const inserted = await fetch(
      `${app.url}/_svc/admin/data/shards/${shard}/tables/notifications/documents`,
      adminInit({
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ recipient: author.id, messageId, text: "delivered" }),
      }),
    );
    expect(inserted.status, await inserted.clone().text()).toBe(201);
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
      // The drawer fades in once its document arrives: wait for it, or axe reads half-faded text.
      await link.waitFor();
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

    it(`links a v.id value to its document, from the cell and the drawer (${width})`, async () => {
      const page = await signedInAt(browser.context, app, `data/${shard}/notifications`);
      await page.setViewportSize(viewport);
      // The queue consumer may add its own notification of the same message: take the first.
      const cell = page.locator(".data-grid tbody").getByRole("link", { name: messageId }).first();
      await cell.waitFor();
      const href = `/_svc/dashboard/data/${shard}/messages?filter=${encodeURIComponent(JSON.stringify({ _id: messageId }))}`;
      expect(await cell.getAttribute("href")).toBe(href);
      await expectNoSidewaysScroll(page.locator("main"));
      await expectAccessible(page, `data, a document id cell (${width})`);

      await page.locator(".data-grid .col-id button").first().click();
      const drawer = dialog(page, "notifications document");
      const inDrawer = drawer.getByRole("link", { name: messageId });
      expect(await inDrawer.getAttribute("href")).toBe(href);
      await page.keyboard.press("Escape");
      await drawer.waitFor({ state: "detached" });

      await cell.click();
      await page.getByRole("heading", { name: "messages", level: 2 }).waitFor();
      const ids = page.locator(".data-grid .col-id button");
      await expect.poll(() => ids.allTextContents()).toEqual([messageId]);
      await page.locator(".plan-line", { hasText: "by_id" }).waitFor();
      await expectNoSidewaysScroll(page.locator("main"));
      await expectAccessible(page, `data, a linked document (${width})`);
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
      // Every call listed is the author's, named once the page's callers are looked up.
      await expect
        .poll(
          async () =>
            new Set(await page.locator('.calls-table td[data-label="Caller"]').allTextContents()),
        )
        .toEqual(new Set([`${author.name} (user)`]));
      const caller = row.first().getByRole("link", { name: author.name, exact: true });
      expect(await caller.getAttribute("href")).toBe(
        `/_svc/dashboard/users/${encodeURIComponent(author.id)}`,
      );
      await expectNoSidewaysScroll(page.locator("html"));
      await expectAccessible(page, `logs, calls by email (${width})`);
      await page.close();
    });
  }
});
