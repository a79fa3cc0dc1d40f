/**
 * The dashboard's lists as an operator reads them (issue 17): long values cut
 * short instead of pushing columns away, phone layouts (the role badge,
 * stacked invitations), the audit filters, the page and searches kept in the
 * URL, and a failed reload shown instead of stale rows. axe-core checks every
 * screen in light and dark mode; the dark theme's accent fills are measured.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { contrastRatio, expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import {
  dialog,
  expectNoSidewaysScroll,
  expectUncovered,
  signedInAt,
  VIEWPORTS,
} from "./support/dashboard-page.ts";
import { adminGet, adminInit } from "./support/example-app.ts";
import { seedOrganization, signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

describe.skipIf(!ready)("the dashboard's lists", () => {
  const { app, browser } = browserTestbed();

  const adminPost = async (path: string, body: object) =>
    fetch(
      `${app.url}/_svc/admin/auth/${path}`,
      adminInit({
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );

  const urlParam = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

  it("cuts long names and emails short, wraps them in the drawer, and shows roles on phones", async () => {
    const name = "W".repeat(100);
    const email = `long-${randomUUID().slice(0, 8)}-${"x".repeat(40)}@${"d".repeat(40)}.example.com`;
    const user = await signUp(app, { label: "long", name, email });
    expect((await adminPost(`users/${user.id}/role`, { role: "admin" })).status).toBe(200);

    const page = await signedInAt(browser.context, app, "users");
    const row = page.getByRole("row").filter({ hasText: email });
    const link = row.getByRole("link", { name, exact: true });
    await link.waitFor();
    expect(await link.getAttribute("title")).toBe(name);
    expect(await row.locator(".user-email").getAttribute("title")).toBe(email);
    await expectUncovered(page.getByRole("columnheader", { name: "Created" }));
    await expectUncovered(row.locator("td").last()); // Created, the rightmost cell
    await expectNoSidewaysScroll(page.locator(".table-wrap"));
    await expectAccessible(page, "users with a long name");

    await link.click();
    await dialog(page, name).getByText(email).waitFor();
    await expectNoSidewaysScroll(page.locator(".dialog-body"));
    await expectAccessible(page, "drawer with a long name");
    await page.keyboard.press("Escape");

    await page.setViewportSize(VIEWPORTS.phone);
    await expectNoSidewaysScroll(page.locator(".table-wrap"));
    await expectUncovered(row.locator(".show-narrow").getByText("admin", { exact: true }));
    await link.click();
    await expectNoSidewaysScroll(page.locator(".dialog-body"));
    await expectAccessible(page, "drawer with a long name (phone)");
    await page.close();
  });

  it("stacks invitations on phones and shows an answered invitation's answer", async () => {
    const org = await seedOrganization(app, "invites");
    const page = await signedInAt(browser.context, app, `organizations/${org.id}/invitations`);
    const accepted = page.getByRole("row").filter({ hasText: org.member.email });
    const pending = page.getByRole("row").filter({ hasText: org.pendingEmail });
    await accepted.getByText("Accepted", { exact: true }).waitFor();
    expect(await accepted.textContent()).not.toMatch(/in \d+ days/);
    expect(await pending.textContent()).toMatch(/in 2 days/);
    await expectAccessible(page, "invitations");

    await page.setViewportSize(VIEWPORTS.phone);
    await expectNoSidewaysScroll(page.locator(".table-wrap"));
    await expectUncovered(pending.getByText(org.pendingEmail));
    await expectUncovered(pending.getByText("in 2 days"));
    await expectAccessible(page, "invitations (phone)");
    await page.close();
  });

  it("filters the audit trail by a known action and by email, with readable times", async () => {
    const user = await signUp(app, { label: "audited" });
    const until = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
    await adminPost(`users/${user.id}/ban`, { expiresAt: until });
    const refused = `refused-${randomUUID().slice(0, 8)}@example.com`;
    expect((await adminPost("users", { email: refused, name: "" })).status).toBe(400);

    const page = await signedInAt(browser.context, app, "audit");
    await page.getByLabel("Action").selectOption("user.ban");
    await expect.poll(() => urlParam(page, "action")).toBe("user.ban");
    await page.getByLabel("Target").fill(user.email);
    await expect.poll(() => urlParam(page, "target")).toBe(user.email);
    const entries = page.locator(".audit-entry");
    await expect.poll(() => entries.count()).toBe(1);
    const note = entries.first().locator(".audit-note time");
    expect(await note.getAttribute("datetime")).toBe(until);
    expect(await entries.first().textContent()).not.toContain(until);
    // The audit line names the user (name and email) and links to them.
    const userLink = entries.first().getByRole("link", { name: user.email });
    expect(await userLink.getAttribute("href")).toContain(encodeURIComponent(user.id));
    await expectUncovered(userLink);
    await expectAccessible(page, "audit filtered");

    await page.getByLabel("Action").selectOption("");
    await page.getByLabel("Target").fill(refused);
    await expect.poll(() => urlParam(page, "target")).toBe(refused);
    await entries.first().getByText("user.create").waitFor();
    expect(await entries.count()).toBe(1);
    expect(await entries.first().getByRole("link").count()).toBe(0);
    await page.close();
  });

  it("keeps a search typed before the screen's first frame", async () => {
    const org = await seedOrganization(app, "early");
    const page = await signedInAt(browser.context, app, "users");
    // A loaded machine: frames come late, so effects that wait for a frame run after typing.
    await page.addInitScript(() => {
      window.requestAnimationFrame = (step) =>
        window.setTimeout(() => step(performance.now()), 1000);
    });
    const fields = [
      {
        screen: "organizations",
        param: "search",
        field: () => page.getByRole("searchbox", { name: "Search organizations" }),
      },
      {
        screen: "users",
        param: "search",
        field: () => page.getByRole("searchbox", { name: "Search users" }),
      },
      // The filters of the audit trail and the logs share one component.
      { screen: "audit", param: "target", field: () => page.getByLabel("Target") },
    ];
    for (const { screen, param, field } of fields) {
      await page.goto(`${app.url}/_svc/dashboard/${screen}`);
      await field().fill(org.name);
      await expect.poll(() => urlParam(page, param), { timeout: 5_000 }).toBe(org.name);
      expect(await field().inputValue()).toBe(org.name);
    }
  });

  it("keeps the page, the organization search and the API filter in the URL", async () => {
    const label = `pager${randomUUID().slice(0, 6)}`;
    await Promise.all(
      Array.from({ length: 26 }, (_, index) =>
        adminPost("users", { email: `${label}-${index}@example.com`, name: `Pager ${index}` }),
      ),
    );
    const page = await signedInAt(browser.context, app, `users?search=${label}`);
    await page.locator(".pager-label").getByText("1–25 of 26").waitFor();
    await page.getByRole("button", { name: "Next →" }).click();
    await page.locator(".pager-label").getByText("26–26 of 26").waitFor();
    expect(urlParam(page, "page")).toBe("2");
    await page.reload();
    await page.locator(".pager-label").getByText("26–26 of 26").waitFor();
    await page.getByRole("button", { name: "← Previous" }).click();
    await page.locator(".pager-label").getByText("1–25 of 26").waitFor();
    expect(urlParam(page, "page")).toBeNull();

    const org = await seedOrganization(app, "searched");
    await page.goto(`${app.url}/_svc/dashboard/organizations`);
    await page.getByRole("searchbox", { name: "Search organizations" }).fill(org.name);
    await expect.poll(() => urlParam(page, "search")).toBe(org.name);
    await page.reload();
    await page.getByRole("link", { name: org.name }).waitFor();
    expect(await page.getByRole("searchbox", { name: "Search organizations" }).inputValue()).toBe(
      org.name,
    );
    await expectAccessible(page, "organizations searched");

    await page.getByRole("link", { name: "API", exact: true }).click();
    await page.getByRole("searchbox", { name: "Filter operations" }).fill("hello");
    await expect.poll(() => urlParam(page, "filter")).toBe("hello");
    await page.reload();
    expect(await page.getByRole("searchbox", { name: "Filter operations" }).inputValue()).toBe(
      "hello",
    );
    await expectAccessible(page, "API reference filtered");
    await page.close();
  });

  it('shows a total counted no further as "N+", on desktops and phones', async () => {
    // The app counts a broad search exactly up to 10 matches (ADMIN_TOTALS_EXACT_UP_TO), testing at
    // most 20 users: with more users than that, a two-character search gets a lower bound.
    const label = `plus${randomUUID().slice(0, 6)}`;
    await Promise.all(
      Array.from({ length: 51 }, (_, index) =>
        adminPost("users", { email: `${label}-${index}@example.com`, name: `Plus ${index}` }),
      ),
    );
    const answer = await adminGet<{ total: number; totalIsExact: boolean }>(app, "users?search=ex");
    expect(answer.totalIsExact).toBe(false);
    const page = await signedInAt(browser.context, app, "users?search=ex");
    const pager = page.locator(".pager-label");
    await pager.getByText(/^1–25 of [\d,]+\+$/).waitFor();
    expect(await pager.textContent()).toBe(`1–25 of ${answer.total.toLocaleString("en")}+`);
    await pager.scrollIntoViewIfNeeded();
    await expectUncovered(pager);
    await expectAccessible(page, "users with a counted-no-further total");
    await page.setViewportSize(VIEWPORTS.phone);
    await pager.scrollIntoViewIfNeeded();
    await expectUncovered(pager);
    await expectNoSidewaysScroll(page.locator(".table-wrap"));
    // A search the index counts exactly keeps its plain total.
    await page.goto(`${app.url}/_svc/dashboard/users?search=${label}`);
    await pager.getByText("1–25 of 51").waitFor();
    await page.close();
  });

  it("shows a failed reload instead of stale rows, with Try again", async () => {
    const page = await signedInAt(browser.context, app, "users");
    await page.locator("table tbody tr").first().waitFor();
    const usersList = (url: URL) => url.pathname === "/_svc/admin/auth/users";
    await page.route(usersList, (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/problem+json",
        body: JSON.stringify({ code: "UNAVAILABLE", detail: "The service is restarting." }),
      }),
    );
    await page.getByLabel("Status").selectOption("true");
    await page.getByRole("alert").getByText("The service is restarting.").waitFor();
    expect(await page.locator("table").count()).toBe(0);
    await expectAccessible(page, "users list error");
    await page.unroute(usersList);
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByRole("alert").waitFor({ state: "detached" });
    await page.close();
  });

  it("keeps white text and the logo mark readable on the dark theme's accent", async () => {
    const page = await signedInAt(browser.context, app, "users");
    await page.emulateMedia({ colorScheme: "dark" });
    const button = page.getByRole("button", { name: "New user" });
    expect(await contrastRatio(button, "color", "background-color")).toBeGreaterThanOrEqual(4.5);
    const mark = page.locator(".brand-mark");
    expect(await contrastRatio(mark, "color", "background-color")).toBeGreaterThanOrEqual(4.5);
    const topbar = await page
      .locator(".topbar")
      .evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await contrastRatio(mark, "background-color", topbar)).toBeGreaterThanOrEqual(3);
    await page.close();
  });
});
