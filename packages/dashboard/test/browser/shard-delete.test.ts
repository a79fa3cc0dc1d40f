/**
 * Deleting a shard's data from the data studio (issue 27): the operator
 * types the shard key before the delete is allowed; the shard leaves the
 * registry and the picker, its documents are gone, and the audit trail names
 * the operator. At laptop and phone widths, axe-clean, in light and dark mode.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { dialog, expectNoSidewaysScroll, signedInAt, VIEWPORTS } from "./support/dashboard-page.ts";
import { adminGet, adminInit, OPERATOR } from "./support/example-app.ts";
import { roomWithMessages } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/**
 * The toast after `shard`'s data went. Its count covers every table: each
 * message sent also gets a notification, written later by the queue consumer.
 */
const deletedToast = (shard: string) =>
  new RegExp(`^Shard ${shard} deleted: [1-9]\\d* documents?\\.$`);

/** Opens the delete confirmation of `shard`'s data; the delete stays disabled until the key is typed. */
async function openConfirmation(page: Page, shard: string) {
  await page.getByRole("button", { name: "Delete shard data…" }).click();
  const confirm = dialog(page, "Delete this shard's data");
  const remove = confirm.getByRole("button", { name: "Delete shard data", exact: true });
  expect(await remove.isDisabled()).toBe(true);
  await confirm.getByLabel(/Type .* to confirm/).fill(`${shard}-not`);
  expect(await remove.isDisabled()).toBe(true);
  return { confirm, remove };
}

describe.skipIf(!ready)("deleting a shard's data from the data studio", () => {
  const { app, browser } = browserTestbed();

  it("asks for the key typed again, deletes, drops the shard from the list and audits it", async () => {
    const shard = await roomWithMessages(app, 2, "room-doomed");
    const kept = await roomWithMessages(app, 1, "room-doomed");
    const page = await signedInAt(browser.context, app, `data/${shard}/messages`);
    await page.getByRole("heading", { name: /^messages/, level: 2 }).waitFor();
    // The shard's registry row: its documents (messages and what the queue consumer wrote), size,
    // last write, and the schema version the shard applied (a hash, see data-lifecycle.md).
    await page
      .locator(".shard-actions")
      .getByText(/· \d+ documents · [\d.]+ kB · last write (just now|.+ ago) · schema [0-9a-f]+$/)
      .waitFor();

    // Cancelling changes nothing.
    const first = await openConfirmation(page, shard);
    await first.confirm.getByRole("button", { name: "Cancel" }).click();
    expect((await fetch(`${app.url}/_svc/admin/data/shards/${shard}`, adminInit())).status).toBe(
      200,
    );

    const { confirm, remove } = await openConfirmation(page, shard);
    await expectAccessible(page, "data, delete shard confirmation");
    await confirm.getByLabel(/Type .* to confirm/).fill(shard);
    await remove.click();
    await page.getByText(deletedToast(shard)).waitFor();
    await page.getByText("Pick a shard", { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/\/data$/);

    const search = page.getByRole("searchbox", { name: "Search shards by key" });
    await search.fill("room-doomed-");
    const shards = page.getByRole("list", { name: "Shards" });
    await shards.getByRole("link", { name: kept, exact: true }).waitFor();
    expect(await shards.getByRole("link", { name: shard, exact: true }).count()).toBe(0);
    expect((await fetch(`${app.url}/_svc/admin/data/shards/${shard}`, adminInit())).status).toBe(
      404,
    );
    const { entries } = await adminGet<{
      entries: { action: string; outcome: string; operator: string }[];
    }>(app, `audit?target=${shard}`);
    expect(entries.map((e) => [e.action, e.outcome, e.operator])).toEqual([
      ["shard.delete", "ok", OPERATOR],
    ]);
    await page.close();
  });

  it("fits a phone: the confirmation is usable and accessible at 390 px", async () => {
    const shard = await roomWithMessages(app, 1, "room-doomed");
    const page = await signedInAt(browser.context, app, `data/${shard}`);
    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByRole("button", { name: "Delete shard data…" }).waitFor();
    await expectNoSidewaysScroll(page.locator("main"));
    await expectAccessible(page, "data, a shard's actions (phone)");
    const { confirm, remove } = await openConfirmation(page, shard);
    await expectAccessible(page, "data, delete shard confirmation (phone)");
    await confirm.getByLabel(/Type .* to confirm/).fill(shard);
    await remove.click();
    await page.getByText(deletedToast(shard)).waitFor();
    expect((await fetch(`${app.url}/_svc/admin/data/shards/${shard}`, adminInit())).status).toBe(
      404,
    );
    await page.close();
  });
});
