/**
 * API keys in the dashboard (issue 31, item 4): a user's keys in the user
 * drawer and an organization's on its page. The operator creates a key,
 * sees it once, the key calls the example app's REST API, and a revoke
 * ends it (401). Desktop and phone; axe-core on each screen, light and dark.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import {
  dialog,
  drawerOf,
  expectNoSidewaysScroll,
  signedInAt,
  VIEWPORTS,
} from "./support/dashboard-page.ts";
import type { RunningApp } from "./support/example-app.ts";
import { seedOrganization, signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/** Creates a key through the open "API keys" section; answers the key the dialog shows once. */
async function createKey(page: Page, ownerLabel: string, name: string, scopes: string) {
  const section = page.getByRole("region", { name: /^API keys/ });
  await section.getByRole("button", { name: "New API key" }).click();
  const form = dialog(page, `New API key for ${ownerLabel}`);
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Scopes").fill(scopes);
  await form.getByRole("button", { name: "Create API key" }).click();
  const shown = dialog(page, `API key ${name}`);
  const input = shown.getByLabel("API key");
  await input.waitFor();
  const key = await input.inputValue();
  expect(key).toMatch(/^svc_[A-Za-z0-9]{48}$/);
  return { section, shown, key };
}

const restList = (app: RunningApp, key: string) =>
  fetch(`${app.url}/_svc/rest/messages/list`, { headers: { "x-api-key": key } });

describe.skipIf(!ready)("API keys", () => {
  const { app, browser } = browserTestbed();

  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    it(`a user's keys: create, shown once, used, revoked (${width})`, async () => {
      const user = await signUp(app, { label: `api-keys-${width}` });
      const page = await drawerOf(browser.context, app, user);
      await page.setViewportSize(viewport);
      const { section, shown, key } = await createKey(page, user.email, "CI deploys", "messages");
      await expectAccessible(page, `API key shown once (${width})`);
      await shown.getByRole("button", { name: "Done" }).click();
      await shown.waitFor({ state: "detached" });

      const item = section.getByRole("listitem").filter({ hasText: "CI deploys" });
      expect(await item.textContent()).toContain(key.slice(0, 12));
      expect(await page.content()).not.toContain(key);
      await expectNoSidewaysScroll(page.getByRole("dialog"));
      await expectAccessible(page, `user drawer with an API key (${width})`);
      expect((await restList(app, key)).status).toBe(200);

      await item.getByRole("button", { name: "Revoke CI deploys" }).click();
      const confirm = dialog(page, "Revoke CI deploys?");
      await confirm.getByRole("button", { name: "Revoke API key" }).click();
      await confirm.waitFor({ state: "detached" });
      await expect.poll(() => item.textContent()).toContain("revoked");
      expect((await restList(app, key)).status).toBe(401);
      await page.close();
    });
  }

  it("an organization's keys on its page (desktop, then phone)", async () => {
    const org = await seedOrganization(app, "api-keys-org");
    const page = await signedInAt(browser.context, app, `organizations/${org.id}`);
    await page.setViewportSize(VIEWPORTS.desktop);
    const { section, shown, key } = await createKey(
      page,
      org.name,
      "Reporting",
      "messages.readonly",
    );
    await shown.getByRole("button", { name: "Done" }).click();
    await shown.waitFor({ state: "detached" });
    await expect
      .poll(() => section.getByRole("listitem").filter({ hasText: "Reporting" }).count())
      .toBe(1);
    expect(await section.textContent()).toContain("messages.readonly");
    expect(await page.content()).not.toContain(key);
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await expectNoSidewaysScroll(page.locator("main"));
      await expectAccessible(page, `organization page with an API key (${width})`);
    }
    await page.close();
  });
});
