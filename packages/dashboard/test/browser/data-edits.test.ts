/**
 * Data grid edits (issue 52; a wrong value typed into a form field is in
 * data-studio.test.ts): one typed into the JSON editor is refused at staging with one path (`body`, never `body.body`), a change that
 * changes nothing is refused, and leaving the table with staged edits asks
 * first (declining keeps them); at the laptop and the phone viewport, with
 * axe finding nothing serious in light and dark mode.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { dialog, signedInAt, VIEWPORTS } from "./support/dashboard-page.ts";
import { adminInit, type RunningApp } from "./support/example-app.ts";
import { signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/** A room shard with two messages, listed by the registry. */
async function room(app: RunningApp): Promise<string> {
  const shard = `room-edits-${randomUUID().slice(0, 8)}`;
  const user = await signUp(app, { label: "edits" });
  for (const body of ["first", "second"]) {
    const response = await fetch(`${app.url}/_svc/rpc?shardKey=${shard}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: user.cookie, origin: app.url },
      body: JSON.stringify({ path: "messages:send", args: { body, channel: "general" } }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const answer = await fetch(`${app.url}/_svc/admin/data/shards/${shard}`, adminInit());
    if (answer.status === 200) return shard;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the shard registry never listed ${shard}`);
}

describe.skipIf(!ready)("editing documents in the data studio", () => {
  const { app, browser } = browserTestbed();

  it.each(Object.entries(VIEWPORTS))(
    "refuses a wrong type and an empty change at staging, and asks before leaving staged edits (%s)",
    async (width, viewport) => {
      const shard = await room(app);
      const page = await signedInAt(browser.context, app, `data/${shard}/messages`);
      await page.setViewportSize(viewport);
      const rows = page.locator(".data-grid tbody tr:not(.grid-spacer)");
      await expect.poll(() => rows.count()).toBe(2);

      // A change that changes nothing is not staged.
      await rows.first().getByRole("button").click();
      const drawer = dialog(page, "messages document");
      await drawer.getByRole("button", { name: "Stage change" }).click();
      await drawer
        .getByText("Nothing to stage: this change leaves the document as it is.")
        .waitFor();
      expect(await page.locator(".staged-bar").count()).toBe(0);

      // A number where the validator wants a string: refused, with the field's path once.
      await drawer.getByRole("tab", { name: "JSON" }).click();
      const json = drawer.getByLabel(/Fields as JSON/);
      const fields = JSON.parse(await json.inputValue()) as Record<string, unknown>;
      await json.fill(JSON.stringify({ ...fields, body: 42, colour: "red" }));
      await drawer.getByRole("button", { name: "Stage change" }).click();
      const alert = drawer.getByRole("alert");
      await alert.getByText("Fix these 2 fields before staging:").waitFor();
      const issues = await alert.locator("li").allTextContents();
      expect(issues).toEqual([
        "body expected string, got number",
        "colour is not a field of this table",
      ]);
      expect((await alert.textContent()) ?? "").not.toContain("body.body");
      expect(await page.locator(".staged-bar").count()).toBe(0);
      await expectAccessible(page, `data, a wrong value refused at staging (${width})`);

      // Fixed, the change stages (the form shows what the JSON now says).
      await json.fill(JSON.stringify({ ...fields, body: "edited" }));
      await drawer.getByRole("tab", { name: "Fields" }).click();
      expect(await drawer.getByLabel("body").inputValue()).toBe("edited");
      expect(await drawer.locator(".field-problem").count()).toBe(0);
      await drawer.getByRole("button", { name: "Stage change" }).click();
      await page.getByText("1 staged change").waitFor();

      // Leaving the table asks first; declining keeps the staged change.
      const asked: string[] = [];
      page.once("dialog", (question) => {
        asked.push(question.message());
        void question.dismiss();
      });
      await page
        .getByRole("navigation", { name: "Tables" })
        .getByRole("link", { name: /^notices / })
        .click();
      await expect.poll(() => asked.length).toBe(1);
      expect(asked[0]).toContain("1 staged change is not applied yet");
      expect(new URL(page.url()).pathname).toMatch(/\/messages$/);
      await page.getByText("1 staged change").waitFor();
      await expectAccessible(page, `data, a staged change kept (${width})`);

      page.once("dialog", (question) => void question.accept());
      await page
        .getByRole("navigation", { name: "Tables" })
        .getByRole("link", { name: /^notices / })
        .click();
      await page.getByRole("heading", { name: /^notices/, level: 2 }).waitFor();
      expect(await page.locator(".staged-bar").count()).toBe(0);
      await page.close();
    },
  );
});
