import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { ADMIN_TOKEN, type RunningApp } from "./example-app.ts";

/** Where the browser tests leave screenshots of what they saw (test artifacts, not committed). */
export const ARTIFACTS = path.resolve(import.meta.dirname, "../../../test-results/screenshots");

/** A fresh tab (fresh sessionStorage) on the dashboard's sign-in screen. */
export async function openDashboard(context: BrowserContext, app: RunningApp): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${app.url}/_svc/dashboard/`);
  await page.getByLabel("Admin token", { exact: true }).waitFor();
  return page;
}

/** Signs in with a token through the form, as an operator would. */
export async function signInWith(page: Page, token: string = ADMIN_TOKEN): Promise<void> {
  await page.getByLabel("Admin token", { exact: true }).fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** A fresh tab, signed in, on the users list. */
export async function signedInPage(context: BrowserContext, app: RunningApp): Promise<Page> {
  const page = await openDashboard(context, app);
  await signInWith(page);
  await page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
  return page;
}

/**
 * A fresh tab already holding the admin token (as sign-in leaves it in
 * sessionStorage), opened at a dashboard path: quicker than the sign-in form
 * for tests about other screens.
 */
export async function signedInAt(
  context: BrowserContext,
  app: RunningApp,
  path: string,
): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript((token) => {
    sessionStorage.setItem("svc.dashboard.adminToken", token);
  }, ADMIN_TOKEN);
  await page.goto(`${app.url}/_svc/dashboard/${path}`);
  await page.locator("h1").first().waitFor();
  return page;
}

/** A fresh signed-in tab with one user's drawer open, as a link to that user opens it. */
export async function drawerOf(
  context: BrowserContext,
  app: RunningApp,
  user: { id: string; email: string },
): Promise<Page> {
  const page = await signedInAt(context, app, `users/${encodeURIComponent(user.id)}`);
  await page.getByRole("dialog").getByText(user.email).first().waitFor();
  return page;
}

/** Searches the users list for one email and opens that user's drawer. */
export async function openUser(page: Page, email: string): Promise<void> {
  await page.getByRole("searchbox", { name: "Search users" }).fill(email);
  await page.getByRole("row").filter({ hasText: email }).getByRole("link").click();
  await page.getByRole("dialog").getByText(email).first().waitFor();
}

/** The open drawer or dialog whose title matches. */
export function dialog(page: Page, title: string | RegExp) {
  return page.getByRole("dialog", { name: title });
}

/** Saves a screenshot of what the test sees, as a test artifact. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** What this tab keeps in web storage, to prove the token is only in sessionStorage. */
export async function storedTokens(page: Page): Promise<{ session: string[]; local: string[] }> {
  return page.evaluate(() => ({
    session: Object.keys(sessionStorage).map((key) => sessionStorage.getItem(key) ?? ""),
    local: Object.keys(localStorage).map((key) => localStorage.getItem(key) ?? ""),
  }));
}

/** Fails when the page text contains the value (e.g. a token that must not linger). */
export async function expectNotOnPage(page: Page, value: string): Promise<void> {
  expect(await page.content()).not.toContain(value);
}

/** The laptop and phone viewports every layout assertion runs at. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/**
 * Fails unless the element lies inside the viewport and is what the browser
 * hit-tests at its centre: nothing covers it, not even a modal dialog in the
 * top layer.
 */
export async function expectUncovered(locator: Locator): Promise<void> {
  const seen = await locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {
      insideViewport:
        box.left >= 0 && box.top >= 0 && box.right <= innerWidth && box.bottom <= innerHeight,
      onTop: hit !== null && element.contains(hit),
    };
  });
  expect(seen).toEqual({ insideViewport: true, onTop: true });
}

/** Fails when the element scrolls sideways (its content is wider than its box). */
export async function expectNoSidewaysScroll(locator: Locator): Promise<void> {
  const widths = await locator.evaluate((element) => ({
    content: element.scrollWidth,
    box: element.clientWidth,
  }));
  expect(widths.content).toBeLessThanOrEqual(widths.box);
}

/** The accessible name of the focused element, or its tag when it has none ("BODY"). */
export async function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (element === null || element === document.body) return "BODY";
    return (
      (element.getAttribute("aria-label") ?? element.textContent?.trim() ?? element.tagName) ||
      element.tagName
    );
  });
}
