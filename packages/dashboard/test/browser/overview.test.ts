/**
 * The overview screen (issue 17) in Chromium against the example app: the
 * figures it shows are the ones `GET overview` answers, the app's health
 * over the last hour comes from the call records' metrics, the window of the
 * sign-ups chart lives in the URL, the figures lead to their lists, and the
 * screen reads well (axe in light and dark) at laptop and phone widths.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { Overview } from "../../ui/api/types.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import {
  expectNoSidewaysScroll,
  screenshot,
  signedInAt,
  signedInPage,
  VIEWPORTS,
} from "./support/dashboard-page.ts";
import { adminGet, adminInit } from "./support/example-app.ts";
import { signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/** The value the overview shows for one figure (`<dt>` label → its `<dd>`). */
async function figure(page: Page, label: string): Promise<string> {
  const stat = page.locator(".stat").filter({ has: page.getByText(label, { exact: true }) });
  return (await stat.locator(".stat-value").textContent())?.trim() ?? "";
}

const shown = (value: number) => value.toLocaleString("en");

describe.skipIf(!ready)("the overview screen", () => {
  const { app, browser } = browserTestbed();

  beforeAll(async () => {
    const banned = await signUp(app, { label: "overview-banned" });
    await signUp(app, { label: "overview-a" });
    await signUp(app, { label: "overview-b" });
    const ban = await fetch(
      `${app.url}/_svc/admin/auth/users/${banned.id}/ban`,
      adminInit({
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ reason: "overview test" }),
      }),
    );
    expect(ban.status).toBe(200);
  });

  it("is in the navigation and shows the figures the admin API counts", async () => {
    const page = await signedInPage(browser.context, app);
    await page.getByRole("link", { name: "Overview", exact: true }).click();
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/_svc/dashboard/overview");
    await page.locator(".chart-caption").waitFor();
    const expected = await adminGet<Overview>(app, "overview?days=30");

    expect(await figure(page, "Users")).toBe(shown(expected.totals.users));
    expect(await figure(page, "Email verified")).toBe(shown(expected.totals.emailVerified));
    expect(await figure(page, "Banned now")).toBe(shown(expected.totals.banned ?? -1));
    expect(await figure(page, "Organizations")).toBe(shown(expected.totals.organizations ?? -1));
    expect(await figure(page, "Last 24 hours")).toBe(shown(expected.activeUsers.last24Hours));
    expect(await figure(page, "Last 30 days")).toBe(shown(expected.activeUsers.last30Days));
    expect(expected.totals.banned).toBeGreaterThanOrEqual(1);
    // Banning revoked the banned user's session: two of the three seeded users are active.
    expect(expected.activeUsers.last24Hours).toBeGreaterThanOrEqual(2);

    const total = expected.signUps.reduce((sum, day) => sum + day.count, 0);
    expect(total).toBeGreaterThanOrEqual(3);
    await expect
      .poll(() => page.locator(".chart-caption").textContent())
      .toContain(`${shown(total)} sign-ups in the last 30 days`);
    expect(await page.locator(".chart-bar").count()).toBe(30);

    await page.getByText("Daily numbers").click();
    const today = expected.signUps.at(-1)!;
    const firstRow = page.locator(".chart-table tbody tr").first();
    expect(await firstRow.locator("time").getAttribute("datetime")).toBe(today.day);
    expect(await firstRow.locator("td").last().textContent()).toBe(shown(today.count));
    await screenshot(page, "overview");
    await expectAccessible(page, "overview");
    await page.close();
  });

  it("keeps the chart's window in the URL across a reload", async () => {
    const page = await signedInAt(browser.context, app, "overview");
    await page.locator(".chart-caption").waitFor();
    await page.getByLabel("Sign-ups over").selectOption("7");
    await expect.poll(() => new URL(page.url()).searchParams.get("days")).toBe("7");
    await expect.poll(() => page.locator(".chart-bar").count()).toBe(7);
    await page.reload();
    await expect.poll(() => page.locator(".chart-bar").count()).toBe(7);
    expect(await page.getByLabel("Sign-ups over").inputValue()).toBe("7");
    await expect
      .poll(() => page.locator(".chart-caption").textContent())
      .toMatch(/sign-ups? in the last 7 days/);
    await page.close();
  });

  it("leads from a figure to the list behind it", async () => {
    const page = await signedInAt(browser.context, app, "overview");
    await page.getByRole("link", { name: /^Banned now: / }).click();
    await page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
    expect(new URL(page.url()).searchParams.get("banned")).toBe("true");
    const { total } = await adminGet<{ total: number }>(app, "users?banned=true");
    await expect
      .poll(() => page.locator(".page-subtitle").textContent())
      .toBe(`${shown(total)} matching`);
    await page.close();
  });

  it("shows the app's health over the last hour: calls, error rate and p95", async () => {
    const refused = await fetch(`${app.url}/_svc/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "messages:send", args: { body: "x", channel: "general" } }),
    });
    expect(refused.status).toBe(401);
    const page = await signedInAt(browser.context, app, "overview");
    await page.getByRole("heading", { name: "App health · last hour" }).waitFor();
    const calls = page.getByRole("link", { name: /^Calls: / });
    await calls.waitFor();
    const metrics = (await (
      await fetch(`${app.url}/_svc/admin/logs/metrics?window=1h`, adminInit())
    ).json()) as { overall: { calls: number; errors: number } };
    const shownCalls = Number((await figure(page, "Calls")).replaceAll(",", ""));
    expect(shownCalls).toBeGreaterThan(0);
    expect(shownCalls).toBeLessThanOrEqual(metrics.overall.calls);
    expect(await figure(page, "Error rate")).toMatch(/^\d+(\.\d)? %$/);
    expect(await figure(page, "p95 duration")).toMatch(/^\d+(\.\d+)? (ms|s)$/);
    expect(metrics.overall.errors).toBeGreaterThan(0);
    await expectAccessible(page, "overview, app health");
    await page.getByRole("link", { name: /^Error rate: / }).click();
    await page.getByRole("heading", { name: "Logs", level: 1 }).waitFor();
    expect(new URL(page.url()).searchParams.get("status")).toBe("failed");
    await page.close();
  });

  it("fits a phone without scrolling sideways", async () => {
    const page = await signedInAt(browser.context, app, "overview");
    await page.setViewportSize(VIEWPORTS.phone);
    await page.locator(".chart-caption").waitFor();
    await expectNoSidewaysScroll(page.locator("html"));
    await screenshot(page, "overview-phone");
    await expectAccessible(page, "overview (phone)");
    await page.close();
  });
});
