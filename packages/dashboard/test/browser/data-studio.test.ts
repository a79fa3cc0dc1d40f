/**
 * The data studio (issue 28) in Chromium against the example app: pick a
 * shard from the registry, browse a table by an index, page through a
 * thousand rows in the virtualised grid, filter, search with the table's
 * search index (issue 49), view as a user (rows their
 * RLS hides disappear), edit with a validation error then a valid edit
 * (staged, reviewed, applied), bulk delete after a typed confirmation, and
 * run a query and a mutation as a user from the Functions page. Each flow
 * runs at the laptop and the phone viewport (1280×800, 390×844), and
 * axe-core checks every screen it passes in light and dark mode. One app and
 * one browser serve the whole file; the shards are seeded once, together.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { expectAccessible, settled } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import {
  dialog,
  expectNoSidewaysScroll,
  screenshot,
  signedInAt,
  VIEWPORTS,
} from "./support/dashboard-page.ts";
import { adminInit, type RunningApp } from "./support/example-app.ts";
import { type SeededUser, signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/** A room shard of its own per test: the example app lets signed-in users write `room-*` shards. */
const roomKey = () => `room-studio-${randomUUID().slice(0, 8)}`;

async function send(
  app: RunningApp,
  user: SeededUser,
  shard: string,
  body: string,
  channel = "general",
) {
  const response = await fetch(`${app.url}/_svc/rpc?shardKey=${shard}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: user.cookie, origin: app.url },
    body: JSON.stringify({ path: "messages:send", args: { body, channel } }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { value: string }).value;
}

/**
 * Waits until the shard registry lists the shard (shards report off the
 * request path). A loop, not `expect.poll`, which only runs inside a test.
 */
async function registered(app: RunningApp, shard: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${app.url}/_svc/admin/data/shards/${shard}`, adminInit());
    if (response.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the shard registry never listed ${shard}`);
}

/** The Functions page's list of procedures (its runs link to their logs by the same name). */
const procedures = (page: Page) => page.getByRole("complementary", { name: "Procedures" });

const gridRows = (page: Page) => page.locator(".data-grid tbody tr:not(.grid-spacer)");

type Viewport = (typeof VIEWPORTS)[keyof typeof VIEWPORTS];

/** A signed-in tab at a dashboard path, at one viewport. */
async function studioAt(
  browser: { context: Parameters<typeof signedInAt>[0] },
  app: RunningApp,
  path: string,
  viewport: Viewport,
): Promise<Page> {
  const page = await signedInAt(browser.context, app, path);
  await page.setViewportSize(viewport);
  return page;
}

/**
 * The screen fits the viewport (the grid scrolls inside its own box) and axe
 * finds nothing serious in either colour mode. With `SVC_STUDIO_SHOTS` set,
 * it also leaves a screenshot of the screen in test-results/ to look at.
 */
async function checkScreen(page: Page, screen: string, width: string): Promise<void> {
  await expectNoSidewaysScroll(page.locator("main"));
  await expectAccessible(page, `${screen} (${width})`);
  if (process.env.SVC_STUDIO_SHOTS === undefined) return;
  await settled(page);
  await screenshot(page, `studio-${width}-${screen.replaceAll(/\W+/g, "-")}`);
}

async function openTable(page: Page, shard: string, table: string): Promise<void> {
  await page.getByRole("searchbox", { name: "Search shards by key" }).fill(shard);
  await page.getByRole("link", { name: shard, exact: true }).click();
  await page
    .getByRole("navigation", { name: "Tables" })
    .getByRole("link", { name: new RegExp(`^${table} `) })
    .click();
  await page.getByRole("heading", { name: new RegExp(`^${table}`), level: 2 }).waitFor();
}

describe.skipIf(!ready)("the data studio", () => {
  const { app, browser } = browserTestbed();
  /** Read-only: both widths browse the same shard. */
  const browsed = { shard: roomKey(), ann: {} as SeededUser };
  /** Written to: a shard per width for the edit flow and one for the run flow. */
  const edited = { desktop: roomKey(), phone: roomKey() };
  const ran = { desktop: roomKey(), phone: roomKey(), ann: {} as SeededUser };

  beforeAll(async () => {
    const [ann, bob, editor, runner] = await Promise.all(
      ["studio-ann", "studio-bob", "studio-edit", "studio-run"].map((label) =>
        signUp(app, { label }),
      ),
    );
    if (!ann || !bob || !editor || !runner) throw new Error("four users were signed up");
    Object.assign(browsed.ann, ann);
    Object.assign(ran.ann, runner);
    await send(app, ann, browsed.shard, "ann in general");
    await send(app, ann, browsed.shard, "ann again");
    await send(app, ann, browsed.shard, "ann elsewhere", "random");
    await send(app, bob, browsed.shard, "bob in general");
    for (const shard of [edited.desktop, edited.phone]) {
      for (const body of ["first", "second", "third"]) await send(app, editor, shard, body);
    }
    for (const shard of [ran.desktop, ran.phone]) await send(app, runner, shard, "before the run");
    const shards = [browsed.shard, edited.desktop, edited.phone, ran.desktop, ran.phone];
    await Promise.all(shards.map((shard) => registered(app, shard)));
  });

  for (const [width, viewport] of Object.entries(VIEWPORTS) as [
    keyof typeof VIEWPORTS,
    Viewport,
  ][]) {
    describe(`at ${width} width (${viewport.width}×${viewport.height})`, () => {
      it("picks a shard, browses by an index, filters, shows a document's JSON, and views as a user whose RLS hides rows", async () => {
        const { shard, ann } = browsed;
        const page = await studioAt(browser, app, "data", viewport);
        await page.getByRole("heading", { name: "Data", level: 1 }).waitFor();
        await checkScreen(page, "data, no shard", width);
        await openTable(page, shard, "messages");
        await expect.poll(() => gridRows(page).count()).toBe(4);
        await page.getByText("As operator").waitFor();
        await checkScreen(page, "data, messages as operator", width);

        await gridRows(page).first().getByRole("button").click();
        const drawer = dialog(page, "messages document");
        await drawer.getByRole("tab", { name: "JSON" }).click();
        const json = await drawer.getByLabel(/Fields as JSON/).inputValue();
        expect(JSON.parse(json)).toMatchObject({
          channel: expect.any(String),
          body: expect.any(String),
        });
        await checkScreen(page, "data, a document's JSON", width);
        await drawer.getByRole("button", { name: "Cancel" }).click();

        await page.getByLabel("Index").selectOption("by_channel");
        await page.getByLabel("channel equals").fill("general");
        await page.getByRole("button", { name: "Apply" }).click();
        await expect.poll(() => gridRows(page).count()).toBe(3);
        expect(new URL(page.url()).searchParams.get("eq")).toBe('["general"]');
        expect(await page.locator(".plan-line").textContent()).toContain("by_channel");

        await page.getByRole("button", { name: "Add filter" }).click();
        await page.getByLabel("Filter 1 field").selectOption("body");
        await page.getByLabel("Filter 1 value").fill("ann again");
        await page.getByRole("button", { name: "Apply" }).click();
        await expect.poll(() => gridRows(page).count()).toBe(1);
        expect(await page.locator(".plan-line").textContent()).toContain("checked row by row");
        await checkScreen(page, "data, filtered", width);

        // The messages table has a search index: its box searches words, most relevant first.
        await page.getByRole("button", { name: "Reset" }).click();
        await expect.poll(() => gridRows(page).count()).toBe(4);
        await page.getByRole("searchbox", { name: "Search words of body" }).fill("ann aga");
        await page.getByRole("button", { name: "Apply" }).click();
        await expect.poll(() => gridRows(page).count()).toBe(1);
        expect(new URL(page.url()).searchParams.get("search")).toBe("ann aga");
        expect(await page.locator(".data-grid").textContent()).toContain("ann again");
        expect(await page.locator(".plan-line").textContent()).toContain(
          "Search index search_body, most relevant first",
        );
        expect(await page.getByLabel("Index").isDisabled()).toBe(true);
        await checkScreen(page, "data, searched", width);

        await page.getByRole("button", { name: "Reset" }).click();
        await expect.poll(() => gridRows(page).count()).toBe(4);
        await page.getByLabel("View as").selectOption("user");
        await page.getByLabel("User id or email").fill(ann.email);
        await page.getByRole("button", { name: "Apply" }).click();
        await page.getByText(`Viewing as ${ann.email}`).waitFor();
        await expect.poll(() => gridRows(page).count()).toBe(3);
        expect(await page.locator(".data-grid").textContent()).not.toContain("bob in general");
        await checkScreen(page, "data, viewing as a user", width);
        await page.close();
      });

      it("refuses a wrong value at the field as it is typed, then a valid insert; patches after a review; bulk deletes after typing the table", async () => {
        const shard = edited[width];
        const page = await studioAt(browser, app, `data/${shard}/maintenance`, viewport);
        await page.getByRole("heading", { name: /^maintenance/, level: 2 }).waitFor();
        await checkScreen(page, "data, an empty table", width);

        await page.getByRole("button", { name: "New document" }).click();
        const drawer = dialog(page, "New document in maintenance");
        await drawer.getByLabel("job").fill("studio");
        await drawer.getByLabel("lastRunAt").fill("soon");
        // Checked against the table's validator as typed: the field says so, and it cannot be staged.
        await drawer.locator(".field-problem").getByText("expected number, got string").waitFor();
        expect(await drawer.getByLabel("lastRunAt").getAttribute("aria-invalid")).toBe("true");
        await checkScreen(page, "data, new document", width);
        await drawer.getByRole("button", { name: "Stage insert" }).click();
        await drawer.getByRole("alert").getByText("Fix this field before staging:").waitFor();
        expect(await page.getByText("1 staged change").count()).toBe(0);
        await checkScreen(page, "data, the error at the field", width);
        await drawer.getByLabel("lastRunAt").fill("1234");
        await drawer.getByRole("button", { name: "Stage insert" }).click();
        await page.getByRole("button", { name: "Review and apply" }).click();
        await dialog(page, "Review 1 staged change")
          .getByRole("button", { name: "Apply 1 change" })
          .click();
        await page.getByText("1 change applied to maintenance.").waitFor();
        await expect.poll(() => gridRows(page).count()).toBe(1);
        expect(await page.locator(".data-grid").textContent()).toContain("1234");

        await page
          .getByRole("navigation", { name: "Tables" })
          .getByRole("link", { name: /^messages / })
          .click();
        await expect.poll(() => gridRows(page).count()).toBe(3);
        await gridRows(page).first().getByRole("button").click();
        const edit = dialog(page, "messages document");
        await edit.getByLabel("body").fill("first, edited");
        await edit.getByRole("button", { name: "Stage change" }).click();
        await page.getByRole("button", { name: "Review and apply" }).click();
        const diff = dialog(page, "Review 1 staged change");
        await diff.getByText("first, edited").waitFor();
        await checkScreen(page, "data, reviewing a change", width);
        await diff.getByRole("button", { name: "Apply 1 change" }).click();
        await page.getByText("1 change applied to messages.").waitFor();
        await page.locator(".data-grid").getByText("first, edited").waitFor();

        await gridRows(page).nth(1).getByRole("checkbox").check();
        await gridRows(page).nth(2).getByRole("checkbox").check();
        await page.getByRole("button", { name: "Delete selected (2)" }).click();
        const confirm = dialog(page, "Delete 2 documents");
        const remove = confirm.getByRole("button", { name: "Delete", exact: true });
        expect(await remove.isDisabled()).toBe(true);
        await checkScreen(page, "data, bulk delete confirmation", width);
        await confirm.getByLabel(/Type .* to confirm/).fill("messages");
        await remove.click();
        await page.getByText("2 documents deleted from messages.").waitFor();
        await expect.poll(() => gridRows(page).count()).toBe(1);
        await page.close();
      });

      it("runs a query and, after a confirmation, a mutation as a user from the Functions page", async () => {
        const { ann } = ran;
        const shard = ran[width];
        const page = await studioAt(browser, app, `functions?shard=${shard}`, viewport);
        await page.getByRole("heading", { name: "Functions", level: 1 }).waitFor();
        await checkScreen(page, "functions", width);
        await page.getByRole("searchbox", { name: "Filter procedures" }).fill("messages:");
        await procedures(page)
          .getByRole("link", { name: /^messages:list / })
          .click();
        await page.getByLabel("User id or email").fill(ann.email);
        await page.getByLabel("channel").fill("general");
        await page.getByRole("button", { name: "Run query" }).click();
        await page.locator(".run-result").getByText("before the run").waitFor();
        expect(await page.locator(".run-summary").textContent()).toContain(`as ${ann.email}`);
        await checkScreen(page, "functions, a query's result", width);

        await procedures(page)
          .getByRole("link", { name: /^messages:send / })
          .click();
        await page.getByLabel("User id or email").fill(ann.email);
        await page.getByLabel("body").fill("sent from the studio");
        await page.getByRole("button", { name: "Run mutation…" }).click();
        const confirm = dialog(page, "Run messages:send?");
        await checkScreen(page, "functions, confirming a mutation", width);
        await confirm.getByRole("button", { name: "Run mutation" }).click();
        await page.locator(".run-summary").getByText("wrote").waitFor();
        expect(await page.locator(".run-summary").textContent()).toMatch(/wrote [1-9]/);
        const check = await fetch(`${app.url}/_svc/rpc?shardKey=${shard}`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie: ann.cookie, origin: app.url },
          body: JSON.stringify({ path: "messages:list", args: {} }),
        });
        expect(JSON.stringify(await check.json())).toContain("sent from the studio");
        await checkScreen(page, "functions, a mutation's result", width);
        await page.close();
      });

      it("pages a thousand rows into the grid, which keeps only the rows in view in the page", async () => {
        const shard = roomKey();
        // One request: a backup of a thousand notices imported into a new shard (docs/data-lifecycle.md).
        const lines = [
          JSON.stringify({
            format: "svc-backup",
            formatVersion: 1,
            schemaVersion: null,
            svcVersion: "0.1.0",
            shardKey: shard,
            createdAt: new Date().toISOString(),
            tables: { notices: 1000 },
          }),
          ...Array.from({ length: 1000 }, (_, i) =>
            JSON.stringify({
              table: "notices",
              _id: `notices_${i.toString(36).padStart(26, "0")}`,
              _creationTime: 1_780_000_000_000 + i,
              doc: { event: "message_posted", text: `notice ${String(i).padStart(4, "0")}` },
            }),
          ),
        ];
        const imported = await fetch(
          `${app.url}/_svc/admin/data/shards/${shard}/import`,
          adminInit({
            method: "POST",
            headers: { "content-type": "application/x-ndjson" },
            body: `${lines.join("\n")}\n`,
          }),
        );
        expect(imported.status, await imported.clone().text()).toBe(200);
        await registered(app, shard);
        const page = await studioAt(browser, app, `data/${shard}/notices`, viewport);
        await expect
          .poll(() => page.locator(".data-grid").getAttribute("aria-rowcount"))
          .toBe("101");
        for (let loaded = 100; loaded < 1000; loaded += 100) {
          await page.getByRole("button", { name: "Load more" }).click();
          await expect
            .poll(() => page.locator(".data-grid").getAttribute("aria-rowcount"))
            .toBe(String(loaded + 101));
        }
        await page.getByText("All 1,000 rows loaded.").waitFor();
        expect(await gridRows(page).count()).toBeLessThan(80);
        await page
          .locator(".grid-scroll")
          .evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
        await page.getByText("notice 0999").waitFor();
        expect(await gridRows(page).count()).toBeLessThan(80);
        await checkScreen(page, "data, a thousand rows", width);
        await page.close();
      });

      it("tries a REST operation from the API page", async () => {
        const page = await studioAt(browser, app, "api?filter=ping", viewport);
        const card = page.locator("article").filter({ hasText: "/_svc/rest/hello/ping" }).first();
        await card.getByRole("button", { name: "Try it" }).click();
        await card.getByLabel("name").fill("studio");
        await card.getByRole("button", { name: "Send", exact: true }).click();
        await card.locator(".try-reply").getByText("200").waitFor();
        expect(await card.locator(".try-reply pre").textContent()).toContain("studio");
        await checkScreen(page, "api, try it", width);
        await page.close();
      });
    });
  }
});
