/**
 * Layout at the laptop and the phone width (issue 52, point 7): procedure
 * names and shard keys break only between their parts ("messages:" |
 * "send"), never inside one; the phone Logs page shows a page of calls a
 * few screens tall with the next page reachable; the Data and Functions
 * pages start at the same left edge as every other page; the documents
 * grid is as tall as a short table, not a fixed box.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import {
  expectNoSidewaysScroll,
  screenshot,
  signedInAt,
  VIEWPORTS,
} from "./support/dashboard-page.ts";
import { adminInit } from "./support/example-app.ts";
import { roomWithMessages, until } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/** Messages sent into the test's shard: more than a phone's page of calls. */
const SENT = 14;

/**
 * Each part of every name on the page (the text between its line-break
 * points) with the number of lines it is drawn on: 1 when it never breaks.
 */
function linesOfNameParts(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll(".name-text")].flatMap((name) =>
      [...name.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? "") !== "")
        .map((node) => {
          const range = document.createRange();
          range.selectNodeContents(node);
          const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          return { part: node.textContent ?? "", lines: tops.size };
        }),
    ),
  );
}

/** The left edge of the page's title, in CSS pixels. */
async function titleLeft(page: Page): Promise<number> {
  const box = await page.locator("h1.page-title").boundingBox();
  if (box === null) throw new Error("the page has no visible title");
  return box.x;
}

describe.skipIf(!ready)("layout at laptop and phone widths", () => {
  const { app, browser } = browserTestbed();
  let shard = "";

  beforeAll(async () => {
    shard = await roomWithMessages(app, SENT, "room-layout");
    await until(async () => {
      const answer = await fetch(
        `${app.url}/_svc/admin/logs?limit=200&function=messages:send&shard=${shard}`,
        adminInit(),
      );
      return ((await answer.json()) as { records: unknown[] }).records.length >= SENT;
    }, `the ${SENT} calls are recorded`);
  });

  it("keeps the phone Logs page a few screens tall, with the older calls a click away", async () => {
    const page = await signedInAt(browser.context, app, `logs?shard=${shard}`);
    await page.setViewportSize(VIEWPORTS.phone);
    await page.reload();
    const rows = page.locator("tr[data-request-id]");
    await rows.first().waitFor();
    expect(await rows.count()).toBe(10);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(4 * VIEWPORTS.phone.height);
    await screenshot(page, "logs-phone-page");

    await page.getByRole("button", { name: "Load older calls" }).click();
    // The next page appends up to 10 more (the queue consumer's calls on the shard count too).
    await expect.poll(() => rows.count()).toBeGreaterThan(10);
    expect(await rows.count()).toBeLessThanOrEqual(20);
    await page.close();
  });

  it.each(Object.entries(VIEWPORTS))(
    "breaks names and keys only between their parts (%s)",
    async (width, viewport) => {
      const page = await signedInAt(browser.context, app, `logs?shard=${shard}`);
      await page.setViewportSize(viewport);
      await page.locator("tr[data-request-id]").first().waitFor();
      const logs = await linesOfNameParts(page);
      expect(logs.map(({ part }) => part)).toEqual(expect.arrayContaining(["messages:", "send"]));
      expect(logs.filter(({ lines }) => lines !== 1)).toEqual([]);
      await expectNoSidewaysScroll(page.locator("html"));

      await page.getByRole("link", { name: "Functions", exact: true }).click();
      await page.locator("tr[data-function] .name-text").first().waitFor();
      const functions = await linesOfNameParts(page);
      expect(functions.length).toBeGreaterThan(0);
      expect(functions.filter(({ lines }) => lines !== 1)).toEqual([]);
      await expectAccessible(page, `Functions names (${width})`);
      await page.close();
    },
  );

  it.each(Object.entries(VIEWPORTS))(
    "starts the Data and Functions pages at every page's left edge (%s)",
    async (_width, viewport) => {
      const page = await signedInAt(browser.context, app, "users");
      await page.setViewportSize(viewport);
      await page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
      const users = await titleLeft(page);
      for (const name of ["Overview", "Data", "Functions", "Logs"]) {
        await page.getByRole("link", { name, exact: true }).click();
        await page.getByRole("heading", { name, level: 1 }).waitFor();
        expect(await titleLeft(page), name).toBe(users);
      }
      await page.close();
    },
  );

  it.each(Object.entries(VIEWPORTS))(
    "sizes the documents grid to a short table (%s)",
    async (width, viewport) => {
      const page = await signedInAt(browser.context, app, `data/${shard}/messages`);
      await page.setViewportSize(viewport);
      const grid = page.locator(".grid-scroll");
      await grid.locator("tbody tr td.col-id").first().waitFor();
      const sizes = await grid.evaluate((element) => ({
        box: element.getBoundingClientRect().height,
        table: element.querySelector("table")?.getBoundingClientRect().height ?? 0,
      }));
      expect(sizes.table).toBeGreaterThan(0);
      expect(sizes.box - sizes.table).toBeLessThanOrEqual(4);
      await screenshot(page, `data-grid-short-${width}`);
      await page.close();
    },
  );
});
