/**
 * "Try it" acts as a user (issue 52 point 6): the API page's try form has
 * Functions' "Run as" picker instead of a pasted token. Anonymous, the
 * example app's `GET /_svc/rest/account/whoami` answers 401; as a picked
 * user (by email) it answers that user's own identity. At laptop and phone
 * widths, axe-clean.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { expectNoSidewaysScroll, signedInAt, VIEWPORTS } from "./support/dashboard-page.ts";
import { signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/** The whoami operation's card with its try form open. */
async function whoamiTry(page: Page) {
  const card = page.locator("article").filter({ hasText: "/_svc/rest/account/whoami" }).first();
  await card.getByRole("button", { name: "Try it" }).click();
  return card;
}

describe.skipIf(!ready)("Try it, acting as", () => {
  const { app, browser } = browserTestbed();

  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    it(`answers anonymously, then as a picked user (${width})`, async () => {
      const ann = await signUp(app, { label: `try-${width}` });
      const page = await signedInAt(browser.context, app, "api?filter=whoami");
      await page.setViewportSize(viewport);
      const card = await whoamiTry(page);
      await card.getByRole("button", { name: "Send", exact: true }).click();
      await card.locator(".try-reply").getByText("401", { exact: true }).waitFor();
      expect(await card.locator(".try-reply pre").textContent()).toContain("Sign in first.");

      await card.getByLabel("Act as").selectOption("user");
      await card.getByLabel("User id or email").fill(ann.email);
      await expectAccessible(page, `try it, act as a user (${width})`);
      await card.getByRole("button", { name: "Send", exact: true }).click();
      const result = card.locator(".run-result");
      await result.getByText("Succeeded").waitFor();
      expect(await result.locator(".run-summary").textContent()).toContain(`as ${ann.email}`);
      const answered = JSON.parse((await result.locator("pre").textContent()) ?? "null") as {
        userId: string;
      };
      expect(answered.userId).toBe(ann.id);
      expect(await card.locator(".try-reply").count()).toBe(0);
      await expectNoSidewaysScroll(page.locator("main"));
      await expectAccessible(page, `try it, a user's answer (${width})`);
      await page.close();
    });
  }
});
