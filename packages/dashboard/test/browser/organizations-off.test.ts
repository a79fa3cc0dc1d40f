/**
 * The organizations screen when the example app runs without the
 * organization plugin: an empty state that says so, never an error, and the
 * admin API reports the same "not enabled" state.
 */
import { describe, expect, it } from "vitest";
import type { Capabilities, OrganizationPage } from "../../ui/api/types.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { screenshot, signedInPage } from "./support/dashboard-page.ts";
import { adminGet, ORGANIZATIONS_OFF } from "./support/example-app.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

describe.skipIf(!ready)("the dashboard with the organization plugin off", () => {
  const { app, browser } = browserTestbed(ORGANIZATIONS_OFF);

  it("shows that organizations are not enabled", async () => {
    const page = await signedInPage(browser.context, app);
    await page.getByRole("link", { name: "Organizations" }).click();
    await page.getByText("Organizations are not enabled").waitFor();
    expect(await page.locator("table").count()).toBe(0);
    expect(await page.getByRole("alert").count()).toBe(0);
    await screenshot(page, "organizations-off");
    await expectAccessible(page, "organizations-off");

    const capabilities = await adminGet<Capabilities>(app, "capabilities");
    expect(capabilities.organizations).toBe(false);
    expect(await adminGet<OrganizationPage>(app, "organizations")).toEqual({
      enabled: false,
      organizations: [],
      total: 0,
      nextCursor: null,
    });
    await page.close();
  });
});
