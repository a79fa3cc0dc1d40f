/**
 * The API keys page (issue 52, point 8) in Chromium against the example app:
 * every key of the app in one list, each linked to its owner, revocable
 * there; at the laptop and the phone viewport, with axe finding nothing
 * serious in light and dark mode.
 */
import { describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { dialog, expectNoSidewaysScroll, signedInAt, VIEWPORTS } from "./support/dashboard-page.ts";
import { adminInit } from "./support/example-app.ts";
import { signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

describe.skipIf(!ready)("the API keys page", () => {
  const { app, browser } = browserTestbed();

  it.each(Object.entries(VIEWPORTS))(
    "lists every key with its owner and revokes one (%s)",
    async (width, viewport) => {
      const user = await signUp(app, { label: `all-keys-${width}` });
      const name = `all keys ${width}`;
      const created = await fetch(
        `${app.url}/_svc/admin/auth/api-keys`,
        adminInit({
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ ownerUserId: user.id, name, scopes: ["*"] }),
        }),
      );
      expect(created.status, await created.clone().text()).toBe(201);

      const page = await signedInAt(browser.context, app, "overview");
      await page.setViewportSize(viewport);
      await page.getByRole("link", { name: "API keys", exact: true }).click();
      await page.getByRole("heading", { name: "API keys", level: 1 }).waitFor();
      const row = page.locator(".list-item").filter({ hasText: name });
      await row.waitFor();
      await row.getByRole("link", { name: user.id }).waitFor();
      expect(await page.getByRole("button", { name: "New API key" }).count()).toBe(0);
      await expectNoSidewaysScroll(page.locator("html"));
      await expectAccessible(page, `API keys (${width})`);

      await row.getByRole("button", { name: `Revoke ${name}` }).click();
      await dialog(page, `Revoke ${name}?`).getByRole("button", { name: "Revoke API key" }).click();
      await row.getByText("revoked").waitFor();
      await row.getByRole("link", { name: user.id }).click();
      await page.getByRole("dialog").getByText(user.email).first().waitFor();
      await page.close();
    },
  );
});
