/**
 * The Logs and Functions pages (issue 29) in Chromium against the example
 * app: filters narrow the calls, a call's detail shows its console lines and
 * error, the live tail shows a new call within 2 s, error groups and the
 * cron/queue view show what the app did, at laptop and phone widths, with
 * axe finding nothing serious in light and dark mode.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { CallRecord } from "../../ui/api/log-types.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import {
  dialog,
  expectNoSidewaysScroll,
  screenshot,
  signedInAt,
  signedInPage,
  VIEWPORTS,
} from "./support/dashboard-page.ts";
import { adminInit, type RunningApp } from "./support/example-app.ts";
import { type SeededUser, signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

async function rpc(app: RunningApp, path: string, args: object, cookie?: string) {
  return fetch(`${app.url}/_svc/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ path, args }),
  });
}

/** Waits until the logs API holds a record matching `match` (records are written ~100 ms after a call). */
async function recorded(
  app: RunningApp,
  query: string,
  match: (record: CallRecord) => boolean,
): Promise<CallRecord> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await fetch(`${app.url}/_svc/admin/logs?limit=200&${query}`, adminInit());
    const { records } = (await response.json()) as { records: CallRecord[] };
    const found = records.find(match);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no record for ${query}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const rowOf = (page: Page, requestId: string) => page.locator(`tr[data-request-id="${requestId}"]`);

describe.skipIf(!ready)("the Logs and Functions pages", () => {
  const { app, browser } = browserTestbed();
  let user: SeededUser;
  let failed: CallRecord;

  beforeAll(async () => {
    user = await signUp(app, { label: "logs" });
    expect((await rpc(app, "hello:ping", { name: "from the logs test" }, user.cookie)).status).toBe(
      200,
    );
    // A mutation that fails: anonymous callers may not send messages.
    expect((await rpc(app, "messages:send", { body: "no" })).status).toBe(401);
    expect((await rpc(app, "messages:send", { body: "queued" }, user.cookie)).status).toBe(200);
    expect((await fetch(`${app.url}/__scheduled?cron=*+*+*+*+*`)).status).toBe(200);
    failed = await recorded(app, "function=messages:send&status=401", () => true);
    await recorded(app, "entry=queue", () => true);
    await recorded(app, "entry=cron", () => true);
  });

  it("lists calls, filters them, and opens a call's detail with its error and stack", async () => {
    const page = await signedInPage(browser.context, app);
    await page.getByRole("link", { name: "Logs", exact: true }).click();
    await page.getByRole("heading", { name: "Logs", level: 1 }).waitFor();
    await rowOf(page, failed.requestId).waitFor();

    await page.getByLabel("Function").fill("hello:ping");
    await expect.poll(() => new URL(page.url()).searchParams.get("function")).toBe("hello:ping");
    await page.locator(".calls-table tbody tr").first().waitFor();
    const routes = await page.locator(".calls-table .call-route").allTextContents();
    expect(routes.length).toBeGreaterThan(0);
    expect(new Set(routes)).toEqual(new Set(["hello:ping"]));

    await page.getByLabel("Function").fill("messages:send");
    await page.getByLabel("Status").selectOption("failed");
    await rowOf(page, failed.requestId).getByRole("link", { name: "messages:send" }).click();
    const detail = dialog(page, "Call messages:send");
    await detail.waitFor();
    expect(new URL(page.url()).searchParams.get("record")).toBe(failed.requestId);
    await detail.getByText(failed.requestId).waitFor();
    await detail.getByText("Sign in to send messages.", { exact: true }).waitFor();
    expect(await detail.locator(".record-block").first().textContent()).toContain(
      "at Object.handler",
    );
    await screenshot(page, "logs-detail");
    await expectAccessible(page, "logs (call detail)");
    await page.keyboard.press("Escape");
    await expect.poll(() => new URL(page.url()).searchParams.get("record")).toBe(null);
    await screenshot(page, "logs");
    await expectAccessible(page, "logs");
    await page.close();
  });

  it.each(Object.entries(VIEWPORTS))(
    "shows a new call within 2 s with the live tail on (%s)",
    async (width, viewport) => {
      const page = await signedInAt(
        browser.context,
        app,
        `logs?user=${encodeURIComponent(user.id)}&function=hello:ping`,
      );
      await page.setViewportSize(viewport);
      await page.locator(".calls-table, .state-empty").first().waitFor();
      await page.getByRole("button", { name: "Live tail" }).click();
      // Shown once the tail's stream is open, which the server does after fixing where it starts.
      await page.getByRole("status").filter({ hasText: "Following new calls" }).waitFor();
      const before = await page.locator(".calls-table tbody tr").count();
      const started = Date.now();
      expect((await rpc(app, "hello:ping", { name: "live" }, user.cookie)).status).toBe(200);
      await expect
        .poll(() => page.locator(".calls-table tbody tr").count(), { timeout: 2_000, interval: 50 })
        .toBe(before + 1);
      expect(Date.now() - started).toBeLessThan(2_000);
      await expectNoSidewaysScroll(page.locator("html"));
      await expectAccessible(page, `logs, live tail (${width})`);
      await page.getByRole("button", { name: "Stop live tail" }).click();
      await page.close();
    },
  );

  it.each(Object.entries(VIEWPORTS))(
    "shows the app's calls first while admin calls happen in the background (%s)",
    async (width, viewport) => {
      const ping = await rpc(app, "hello:ping", { name: `app first ${width}` }, user.cookie);
      expect(ping.status).toBe(200);
      const appCall = await recorded(app, "function=hello:ping", () => true);
      // The dashboard's own kind of traffic, more than a page of it, while the page loads.
      let stop = false;
      const background = (async () => {
        let made = 0;
        while (!stop || made < 60) {
          const answer = await fetch(`${app.url}/_svc/admin/data/shards?limit=1`, adminInit());
          await answer.body?.cancel();
          made++;
        }
      })();
      const page = await signedInAt(browser.context, app, "logs");
      await page.setViewportSize(viewport);
      await page.locator(".calls-table tbody tr").first().waitFor();
      stop = true;
      await background;
      await recorded(app, "entry=admin", () => true);
      await page.getByRole("button", { name: "Refresh" }).click();
      await page.locator(".calls-table tbody tr").first().waitFor();
      const routes = await page.locator(".calls-table .call-route").allTextContents();
      expect(routes.length).toBeGreaterThan(0);
      expect(routes.filter((route) => route.includes("/_svc/admin/"))).toEqual([]);
      await rowOf(page, appCall.requestId).waitFor();
      const include = page.getByRole("checkbox", { name: "Include admin calls" });
      expect(await include.isChecked()).toBe(false);
      await include.check();
      await expect.poll(() => new URL(page.url()).searchParams.get("admin")).toBe("include");
      await page
        .locator(".calls-table .call-route")
        .filter({ hasText: "GET /_svc/admin/data/*" })
        .first()
        .waitFor();
      await expectNoSidewaysScroll(page.locator("html"));
      await expectAccessible(page, `logs, admin calls included (${width})`);
      await page.close();
    },
  );

  it("groups errors by code, function and message, with a sample", async () => {
    const page = await signedInAt(browser.context, app, "logs/errors");
    const row = page
      .locator(".groups-table tbody tr")
      .filter({ hasText: "messages:send" })
      .filter({ hasText: "UNAUTHENTICATED" });
    await row.waitFor();
    expect(await row.getByText("Sign in to send messages.").count()).toBe(1);
    await row.getByRole("button", { name: "Show sample" }).click();
    const sample = dialog(page, "Sample of UNAUTHENTICATED");
    await sample.getByText("Sign in to send messages.", { exact: true }).waitFor();
    await screenshot(page, "logs-errors");
    await expectAccessible(page, "error groups (sample)");
    await page.keyboard.press("Escape");
    await expectAccessible(page, "error groups");
    await page.close();
  });

  it("shows cron jobs and queues with their runs", async () => {
    const page = await signedInAt(browser.context, app, "logs/jobs");
    const job = page.locator(".jobs-table tbody tr").filter({ hasText: "maintenance:sweep" });
    await job.waitFor();
    expect(Number(await job.locator('td[data-label="Runs"]').textContent())).toBeGreaterThan(0);
    await job.locator('td[data-label="Last run"]').getByText("200").waitFor();
    const queue = page
      .locator(".queues-table tbody tr")
      .filter({ hasText: "svc-example-notifications" });
    expect(Number(await queue.locator('td[data-label="Messages"]').textContent())).toBeGreaterThan(
      0,
    );
    expect(await queue.locator('td[data-label="Dead-lettered"]').textContent()).toBe("0");
    await screenshot(page, "logs-jobs");
    await expectAccessible(page, "cron and queues");
    await page.close();
  });

  it("shows each function's calls, errors, latency and a sparkline", async () => {
    const page = await signedInAt(browser.context, app, "functions");
    const row = page.locator('.metrics-table tr[data-function="messages:send"]').first();
    await row.waitFor();
    expect(await row.locator('td[data-label="Errors"] .badge').count()).toBe(1);
    await row.getByRole("img", { name: /calls of messages:send over the last hour/ }).waitFor();
    const functions = () => page.locator(".metrics-table tr[data-function]");
    const adminRows = functions().filter({ hasText: "/_svc/admin/" });
    expect(await adminRows.count()).toBe(0);
    await page.getByRole("checkbox", { name: "Include admin calls" }).check();
    await adminRows.first().waitFor();
    await page.getByRole("checkbox", { name: "Include admin calls" }).uncheck();
    await expect.poll(() => adminRows.count()).toBe(0);
    await page.getByLabel("Window").selectOption("24h");
    await expect.poll(() => new URL(page.url()).searchParams.get("window")).toBe("24h");
    await row.getByRole("img", { name: /over the last 24 hours/ }).waitFor();
    await screenshot(page, "functions");
    await expectAccessible(page, "functions");
    await page.close();
  });

  it("fits a phone: the calls filtered, a call's detail, the jobs and the functions", async () => {
    const page = await signedInAt(browser.context, app, `logs?record=${failed.requestId}`);
    await page.setViewportSize(VIEWPORTS.phone);
    await dialog(page, "Call messages:send")
      .getByText("Sign in to send messages.", { exact: true })
      .waitFor();
    await expectAccessible(page, "logs detail (phone)");
    await page.keyboard.press("Escape");
    await page.locator(".calls-table").waitFor();
    await page.getByLabel("Function").fill("hello:ping");
    await expect.poll(() => new URL(page.url()).searchParams.get("function")).toBe("hello:ping");
    await expect
      .poll(async () => new Set(await page.locator(".calls-table .call-route").allTextContents()))
      .toEqual(new Set(["hello:ping"]));
    await expectNoSidewaysScroll(page.locator("html"));
    await screenshot(page, "logs-phone");
    await expectAccessible(page, "logs (phone)");
    for (const path of ["logs/jobs", "logs/errors", "functions"]) {
      await page.goto(`${app.url}/_svc/dashboard/${path}`);
      await page.locator(".table-wrap, .state-empty").first().waitFor();
      await expectNoSidewaysScroll(page.locator("html"));
      await expectAccessible(page, `${path} (phone)`);
    }
    await page.close();
  });
});
