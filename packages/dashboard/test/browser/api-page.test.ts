/**
 * The API page's filter (issue 52's `SearchField`): typing narrows the
 * operation index and the reference to the matching REST operations and
 * puts the filter into the URL (so reload and back keep it); a filter that
 * matches nothing says so; clearing it brings every operation back. The
 * counts are read from the app's own OpenAPI document. At laptop and phone
 * widths, axe-clean.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { expectNoSidewaysScroll, signedInAt, VIEWPORTS } from "./support/dashboard-page.ts";
import { adminInit, type RunningApp } from "./support/example-app.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

const METHODS = ["get", "put", "post", "delete", "patch"];

/** The path of every REST operation the app's OpenAPI document lists (what the page renders from). */
async function documentedPaths(app: RunningApp): Promise<string[]> {
  const response = await fetch(`${app.url}/_svc/admin/openapi`, adminInit());
  expect(response.status).toBe(200);
  const document = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => method in item).map(() => path),
  );
}

/** The paths the page's operation index shows now. */
async function indexedPaths(page: Page): Promise<string[]> {
  const index = page.getByRole("navigation").filter({ has: page.locator(".api-index-tag") });
  return index.locator("a .mono").allTextContents();
}

describe.skipIf(!ready)("the API page's filter", () => {
  const { app, browser } = browserTestbed();

  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    it(`narrows the operations as the operator types, in the URL (${width})`, async () => {
      const paths = await documentedPaths(app);
      const whoami = paths.filter((path) => path.includes("whoami"));
      expect(whoami.length).toBeGreaterThan(0);
      expect(paths.length).toBeGreaterThan(whoami.length);

      const page = await signedInAt(browser.context, app, "api");
      await page.setViewportSize(viewport);
      await page.getByRole("heading", { level: 1 }).waitFor();
      await expect.poll(() => indexedPaths(page)).toHaveLength(paths.length);

      const filter = page.getByRole("searchbox", { name: "Filter operations" });
      await filter.fill("whoami");
      await expect
        .poll(async () => (await indexedPaths(page)).sort())
        .toEqual(whoami.map((path) => path.replace("/_svc/rest/", "/")).sort());
      await expect.poll(() => new URL(page.url()).searchParams.get("filter")).toBe("whoami");
      expect(await page.locator("article").filter({ hasText: whoami[0]! }).count()).toBe(
        whoami.length,
      );
      await expectNoSidewaysScroll(page.locator("main"));
      await expectAccessible(page, `API page, filtered (${width})`);

      await filter.fill("no-such-operation-anywhere");
      await page.getByText("No operation matches the filter").waitFor();
      expect(await indexedPaths(page)).toEqual([]);
      await expectAccessible(page, `API page, nothing matches (${width})`);

      await filter.fill("");
      await expect.poll(() => indexedPaths(page)).toHaveLength(paths.length);
      await expect.poll(() => new URL(page.url()).searchParams.get("filter") ?? "").toBe("");
      await page.close();
    });
  }
});
