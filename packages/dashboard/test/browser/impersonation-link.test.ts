/**
 * "Open the app as this user" (issue 17): the impersonation dialog creates a
 * one-time link and opens it in a new tab; that tab confirms, lands on the
 * example app signed in as the user (a bounded impersonation session), and
 * the link is spent. Desktop and phone; axe-core on every screen of the
 * flow, light and dark.
 */
import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../../ui/api/types.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { dialog, drawerOf, expectUncovered, VIEWPORTS } from "./support/dashboard-page.ts";
import { adminGet, OPERATOR } from "./support/example-app.ts";
import { signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

describe.skipIf(!ready)("open the app as this user", () => {
  const { app, browser } = browserTestbed();

  const auditOf = async (target: string, action: string) =>
    (await adminGet<{ entries: AuditEntry[] }>(app, `audit?target=${target}&action=${action}`))
      .entries;

  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    it(`opens a new tab signed in as the user, through a link used once (${width})`, async () => {
      const user = await signUp(app, { label: `open-app-${width}` });
      const page = await drawerOf(browser.context, app, user);
      await page.setViewportSize(viewport);

      await page.getByRole("button", { name: "Impersonate" }).click();
      const start = dialog(page, /^Impersonate /);
      await start.getByLabel("Reason").fill(`Ticket open-app ${width}`);
      await start.getByLabel("Lasts").selectOption({ label: "15 minutes" });
      expect(await start.textContent()).toContain(
        "It replaces any session this browser has on the app, yours included.",
      );
      const openApp = start.getByRole("button", { name: "Open the app as this user" });
      await expectUncovered(openApp);
      await expect
        .poll(() => start.getByRole("button", { name: "Get a token for API use" }).isVisible())
        .toBe(true);
      await expectAccessible(page, `impersonation dialog (${width})`);

      const [tab] = await Promise.all([browser.context.waitForEvent("page"), openApp.click()]);
      await tab.setViewportSize(viewport);
      const confirm = tab.getByRole("button", { name: `Continue as ${user.email}` });
      await confirm.waitFor();
      expect(await tab.textContent("main")).toContain(
        `You, operator ${OPERATOR}, will be signed in to this app as ${user.email} for 15 minutes.`,
      );
      await expectAccessible(tab, `link confirmation page (${width})`);
      const linkUrl = tab.url();
      expect(linkUrl).toMatch(/\/_svc\/admin\/auth\/link\/[A-Za-z0-9_-]{43}$/);

      const opened = dialog(page, /^Opening the app as /);
      await opened.waitFor();
      expect(await opened.getByRole("link").getAttribute("href")).toBe(linkUrl);
      await expectAccessible(page, `impersonation opened (${width})`);

      await confirm.click();
      await tab.waitForURL(`${app.url}/`);
      const session = await tab.evaluate(async () => {
        const response = await fetch("/api/auth/get-session");
        return (await response.json()) as {
          user: { id: string; email: string };
          session: { id: string; expiresAt: string; impersonatedBy: string };
        };
      });
      expect(session.user).toMatchObject({ id: user.id, email: user.email });
      expect(session.session.impersonatedBy).toBe(`svc-operator:${OPERATOR}`);
      const left = Date.parse(session.session.expiresAt) - Date.now();
      expect(left).toBeLessThanOrEqual(15 * 60_000);
      expect(left).toBeGreaterThan(14 * 60_000);

      // The link is spent: opening it again (as the fallback link would) says so.
      await tab.goto(linkUrl);
      await tab.getByRole("heading", { name: "This link cannot be used" }).waitFor();
      expect(await tab.textContent("main")).toContain("already used or has expired");
      await expectAccessible(tab, `spent link page (${width})`);

      const [created] = await auditOf(user.id, "user.impersonation-link");
      expect(created).toMatchObject({
        operator: OPERATOR,
        reason: `Ticket open-app ${width}`,
        outcome: "ok",
      });
      const [used] = await auditOf(session.session.id, "impersonation.link-used");
      expect(used).toMatchObject({ operator: OPERATOR, userId: user.id, outcome: "ok" });

      await opened.getByRole("button", { name: "Done" }).click();
      await opened.waitFor({ state: "detached" });
      await tab.close();
      await page.close();
    });
  }
});
