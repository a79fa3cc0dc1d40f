/**
 * The user search folds Unicode case (issue 52 point 4): "émilie" typed in
 * lower case finds "Émilie", at laptop and phone widths, axe-clean. The
 * folding itself (and its 1M-user cost) is tested in @svc/auth; this is the
 * operator's side of it, through the search box.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { expectNoSidewaysScroll, signedInAt, VIEWPORTS } from "./support/dashboard-page.ts";
import { type SeededUser, signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

describe.skipIf(!ready)("the user search, in any case", () => {
  const { app, browser } = browserTestbed();
  const tag = randomUUID().slice(0, 8);
  const emilie = {} as SeededUser;

  beforeAll(async () => {
    Object.assign(emilie, await signUp(app, { label: "fold", name: `Émilie-${tag}` }));
  });

  it.each(Object.entries(VIEWPORTS))(
    'finds "Émilie" when "émilie" is typed (%s)',
    async (width, viewport) => {
      const page = await signedInAt(browser.context, app, "users");
      await page.setViewportSize(viewport);
      const typed = `émilie-${tag}`;
      await page.getByRole("searchbox", { name: "Search users" }).fill(typed);
      await expect
        .poll(() => new URL(page.url()).searchParams.get("search"), { timeout: 15_000 })
        .toBe(typed);
      const rows = page.locator("table tbody tr");
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().textContent()).toContain(`Émilie-${tag}`);
      expect(await rows.first().textContent()).toContain(emilie.email);
      await expectNoSidewaysScroll(page.locator("html"));
      await expectAccessible(page, `users, a search in another case (${width})`);
      await page.close();
    },
  );
});
