/**
 * The data studio's SQL console (issue 52) in Chromium against the example
 * app: a read answers a table of rows, a DELETE in read-only mode is refused
 * by SQLite and changes nothing, and write mode runs only after the shard key
 * is typed, then commits; at the laptop and the phone viewport, with axe
 * finding nothing serious in light and dark mode.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { dialog, expectNoSidewaysScroll, signedInAt, VIEWPORTS } from "./support/dashboard-page.ts";
import { adminInit, type RunningApp } from "./support/example-app.ts";
import { signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/** A room shard with `count` messages, listed by the registry. */
async function roomWith(app: RunningApp, count: number): Promise<string> {
  const shard = `room-sql-${randomUUID().slice(0, 8)}`;
  const user = await signUp(app, { label: "sql" });
  for (let n = 0; n < count; n++) {
    const response = await fetch(`${app.url}/_svc/rpc?shardKey=${shard}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: user.cookie, origin: app.url },
      body: JSON.stringify({ path: "messages:send", args: { body: `m${n}`, channel: "general" } }),
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

/** How many messages the shard holds, asked through the console's route. */
async function messages(app: RunningApp, shard: string): Promise<unknown> {
  const response = await fetch(
    `${app.url}/_svc/admin/data/shards/${shard}/sql`,
    adminInit({
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sql: "SELECT count(*) FROM t_messages" }),
    }),
  );
  return ((await response.json()) as { rows: unknown[][] }).rows[0]?.[0];
}

describe.skipIf(!ready)("the SQL console", () => {
  const { app, browser } = browserTestbed();

  it.each(Object.entries(VIEWPORTS))(
    "reads, refuses a read-only DELETE, and commits a typed-confirmed write (%s)",
    async (width, viewport) => {
      const shard = await roomWith(app, 3);
      const page = await signedInAt(browser.context, app, `data/${shard}`);
      await page.setViewportSize(viewport);
      await page
        .getByRole("navigation", { name: "Tables" })
        .getByRole("link", { name: "SQL console" })
        .click();
      await page.getByRole("heading", { name: "SQL console", level: 2 }).waitFor();
      expect(new URL(page.url()).searchParams.get("view")).toBe("sql");
      const statement = page.getByLabel("Statement");

      await statement.fill("SELECT count(*) AS n FROM t_messages");
      await page.getByRole("button", { name: "Run read-only" }).click();
      const result = page.locator(".sql-result");
      await result.getByRole("columnheader", { name: "n" }).waitFor();
      expect(await result.locator("tbody td").allTextContents()).toEqual(["3"]);
      await page.getByText(/read-only, rolled back/).waitFor();
      await expectNoSidewaysScroll(page.locator("main"));
      await expectAccessible(page, `SQL console, a read (${width})`);

      await statement.fill("DELETE FROM t_messages");
      await page.getByRole("button", { name: "Run read-only" }).click();
      await page.getByText(/run it in write mode/).waitFor();
      expect(await messages(app, shard)).toBe(3);
      await expectAccessible(page, `SQL console, a refused write (${width})`);

      await statement.fill(
        "DELETE FROM t_messages WHERE rowid = (SELECT min(rowid) FROM t_messages)",
      );
      await page.getByRole("checkbox", { name: "Write mode" }).check();
      await page.getByRole("button", { name: "Run and commit…" }).click();
      const confirm = dialog(page, "Run this statement and commit?");
      const commit = confirm.getByRole("button", { name: "Run and commit", exact: true });
      expect(await commit.isDisabled()).toBe(true);
      await confirm.getByLabel(/Type .* to confirm/).fill(`${shard}-not`);
      expect(await commit.isDisabled()).toBe(true);
      await expectAccessible(page, `SQL console, write confirmation (${width})`);
      await confirm.getByLabel(/Type .* to confirm/).fill(shard);
      await commit.click();
      // SQLite counts the rows its triggers wrote too (the table's search index).
      await page.getByText(/^Committed: \d+ rows written\.$/).waitFor();
      await page.getByText(/· committed/).waitFor();
      expect(await messages(app, shard)).toBe(2);
      await page.close();
    },
  );
});
