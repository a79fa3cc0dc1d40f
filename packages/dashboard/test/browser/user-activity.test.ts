/**
 * Last sign-in and last activity on the Users screen (issue 17): the two
 * columns on a laptop ("Never" for a user who never signed in), the last
 * activity under the name on a phone, both in the user drawer, and the sort
 * control ordering by them, kept in the URL. axe-core checks each layout.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { screenshot, signedInAt, VIEWPORTS } from "./support/dashboard-page.ts";
import { adminInit } from "./support/example-app.ts";
import { type SeededUser, signIn, signUp, uniqueEmail } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

describe.skipIf(!ready)("users' last sign-in and last activity", () => {
  const { app, browser } = browserTestbed();
  const tag = `act${randomUUID().slice(0, 8)}`;
  let older: SeededUser;
  let newer: SeededUser;
  let never: { id: string; email: string };

  beforeAll(async () => {
    // Signed up (better-auth signs the user in) a moment apart, then `older` signs in again.
    older = await signUp(app, { label: `${tag}-older`, name: `${tag} Older` });
    newer = await signUp(app, { label: `${tag}-newer`, name: `${tag} Newer` });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await signIn(app, newer, "seed-script/1.0 (Phone)");
    // Created by an operator: never signed in.
    const email = uniqueEmail(`${tag}-never`);
    const created = await fetch(
      `${app.url}/_svc/admin/auth/users`,
      adminInit({
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, name: `${tag} Never` }),
      }),
    );
    expect(created.status).toBe(201);
    never = { id: ((await created.json()) as { user: { id: string } }).user.id, email };
  });

  /** The emails of the table's rows, top to bottom. */
  async function rowEmails(page: Page): Promise<string[]> {
    await page.getByRole("row").filter({ hasText: never.email }).waitFor();
    return page
      .locator("tbody tr .user-email")
      .evaluateAll((cells) => cells.map((cell) => cell.textContent ?? ""));
  }

  it("shows both columns on a laptop and sorts by them from the sort control, in the URL", async () => {
    const page = await signedInAt(browser.context, app, `users?search=${tag}`);
    await page.setViewportSize(VIEWPORTS.desktop);
    // The table renders after the list loads: wait for it before reading its headers.
    await page.getByRole("columnheader", { name: "Last active" }).waitFor();
    const headers = await page.getByRole("columnheader").allTextContents();
    expect(headers).toEqual(expect.arrayContaining(["Last sign-in", "Last active"]));

    const neverRow = page.getByRole("row").filter({ hasText: never.email });
    await expect.poll(() => neverRow.getByRole("cell").allTextContents()).toContain("Never");
    expect(
      (await neverRow.getByRole("cell").allTextContents()).filter((text) => text === "Never"),
    ).toHaveLength(2);
    const newerRow = page.getByRole("row").filter({ hasText: newer.email });
    expect(await newerRow.locator("td > time").count()).toBe(3);
    expect(await newerRow.locator("td > time").last().textContent()).toBe("just now");

    const sort = page.getByRole("combobox", { name: "Sort" });
    await sort.selectOption({ label: "Recently active" });
    await expect.poll(() => new URL(page.url()).searchParams.get("sort")).toBe("lastActive");
    // Newest first is the default order, left out of the URL.
    expect(new URL(page.url()).searchParams.get("order") ?? "desc").toBe("desc");
    await expect.poll(() => rowEmails(page)).toEqual([newer.email, older.email, never.email]);

    await sort.selectOption({ label: "Oldest sign-in" });
    await expect.poll(() => new URL(page.url()).searchParams.get("sort")).toBe("lastSignIn");
    await expect.poll(() => rowEmails(page)).toEqual([never.email, older.email, newer.email]);
    await expectAccessible(page, "users sorted by last sign-in (desktop)");
    await screenshot(page, "users-activity-desktop");

    // The URL alone brings the same order back.
    await page.reload();
    expect(await sort.inputValue()).toBe("lastSignIn:asc");
    expect(await rowEmails(page)).toEqual([never.email, older.email, newer.email]);
    await page.close();
  });

  it("shows the last activity under the name on a phone, and both times in the drawer", async () => {
    const page = await signedInAt(
      browser.context,
      app,
      `users?search=${tag}&sort=lastActive&order=desc`,
    );
    await page.setViewportSize(VIEWPORTS.phone);
    expect(await rowEmails(page)).toEqual([newer.email, older.email, never.email]);
    const neverRow = page.getByRole("row").filter({ hasText: never.email });
    await neverRow.getByText("Never signed in").waitFor();
    const newerRow = page.getByRole("row").filter({ hasText: newer.email });
    await newerRow.getByText("Active just now").waitFor();
    expect(await page.getByRole("columnheader", { name: "Last active" }).isVisible()).toBe(false);
    await expectAccessible(page, "users sorted by last activity (phone)");
    await screenshot(page, "users-activity-phone");

    await newerRow.getByRole("link").click();
    const drawer = page.getByRole("dialog");
    await drawer.getByText(newer.email).first().waitFor();
    const times = drawer.locator("dl.fields");
    await times.getByText("Last sign-in").waitFor();
    await times.getByText("Last active").waitFor();
    const lastActive = times.locator("dt:has-text('Last active') + dd time");
    expect(await lastActive.textContent()).toBe("just now");
    await expectAccessible(page, "user drawer with activity (phone)");
    await page.close();

    const drawerPage = await signedInAt(
      browser.context,
      app,
      `users/${encodeURIComponent(never.id)}`,
    );
    const neverDrawer = drawerPage.getByRole("dialog");
    await neverDrawer.getByText(never.email).first().waitFor();
    expect(
      await neverDrawer.locator("dl.fields dt:has-text('Last sign-in') + dd").textContent(),
    ).toBe("Never");
    await drawerPage.close();
  });
});
