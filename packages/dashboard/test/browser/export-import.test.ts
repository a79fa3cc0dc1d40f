/**
 * Export and import on the users screen (issue 17): the export streams the
 * list's filtered users into a file whose rows are exactly what the admin
 * API lists; the import checks a whole file first (a dry run naming every
 * row that would fail), then imports it in requests of 500 with progress,
 * keeps ids and password hashes, and says exactly what landed when canceled
 * or when a request fails. axe-core checks each dialog state in light and
 * dark mode, at desktop and phone width.
 */
import { randomUUID } from "node:crypto";
import { text } from "node:stream/consumers";
import { csvRow, parseCsv, unguardFormula } from "@svc/auth/admin-contract";
import type { Download, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { UserDetail, UserPage } from "../../ui/api/types.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import {
  dialog,
  expectNoSidewaysScroll,
  focusedName,
  screenshot,
  signedInAt,
  VIEWPORTS,
} from "./support/dashboard-page.ts";
import { adminGet, adminInit, type RunningApp } from "./support/example-app.ts";
import { signIn, signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/** A term no other test's users contain, so a search finds only this test's users. */
const termOf = (label: string) => `${label}${randomUUID().slice(0, 8)}`;

/** Starts recording every text the progress line shows (the runs are too quick to catch by polling). */
async function recordProgress(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { progressSeen: seen });
    new MutationObserver(() => {
      for (const line of document.querySelectorAll(".progress-text")) {
        const text = line.textContent ?? "";
        if (seen.at(-1) !== text) seen.push(text);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
}

/** Clicks and returns the file the page saves. */
async function downloadBy(page: Page, click: () => Promise<void>): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  return download;
}

/** A download's text, streamed (the shared Chromium runs as a server, so downloads have no local path). */
async function textOf(download: Download): Promise<string> {
  return text(await download.createReadStream());
}

/** "Row 7 · x@example.com · invalid" items of the report, as row numbers and reasons. */
async function reportedRows(page: Page): Promise<{ row: number; text: string }[]> {
  const items = await page.locator(".outcome-list li").allTextContents();
  return items.map((text) => ({
    row: Number(/^Row ([\d,]+)/.exec(text)![1]!.replace(/,/g, "")),
    text,
  }));
}

async function usersMatching(app: RunningApp, term: string): Promise<number> {
  return (await adminGet<UserPage>(app, `users?search=${encodeURIComponent(term)}`)).total;
}

describe.skipIf(!ready)("export and import", () => {
  const { app, browser } = browserTestbed();

  it("exports the filtered list as CSV, and as JSON with password hashes, at desktop and phone width", async () => {
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      const term = termOf(`xprt${width}`);
      await signUp(app, { label: `${term}-a`, name: `=Formula ${term}` });
      await signUp(app, { label: `${term}-b`, name: 'Ann "A", Jr.' });
      await signUp(app, { label: `${term}-c` });
      const page = await signedInAt(browser.context, app, `users?search=${term}`);
      await page.setViewportSize(viewport);
      await page.getByText("3 matching").waitFor();
      // The toolbar's three buttons fit (under the title on a phone).
      await expectNoSidewaysScroll(page.locator("body"));

      await page.getByRole("button", { name: "Export", exact: true }).click();
      const exporter = dialog(page, "Export users");
      await exporter.getByText(`The users the list shows (3): matching "${term}"`).waitFor();
      await expectAccessible(page, `export dialog (${width})`);

      const format = width === "desktop" ? "csv" : "json";
      if (format === "json") {
        await exporter.getByLabel("JSON").check();
        await exporter.getByLabel("Include password hashes").check();
        await exporter.getByText("can move these users to another app").waitFor();
        await expectAccessible(page, `export dialog, password hashes warned (${width})`);
        await screenshot(page, `export-dialog-hashes-${width}`);
      }
      if (width === "desktop") {
        // Held before it reaches the server: the dialog stays on its progress, then is canceled.
        let release = () => {};
        await page.route("**/users/export*", async (route) => {
          await new Promise<void>((go) => {
            release = go;
          });
          await route.continue().catch(() => {});
        });
        await exporter.getByRole("button", { name: "Export CSV" }).click();
        await exporter.getByRole("progressbar", { name: "Exporting users" }).waitFor();
        await exporter.getByText("0 of 3 users · 0 B").waitFor();
        expect(await focusedName(page)).toBe("Cancel export");
        await expectAccessible(page, "export running (desktop)");
        await exporter.getByRole("button", { name: "Cancel export" }).click();
        await exporter.getByText("Export canceled. Nothing was saved.").waitFor();
        release();
        await page.unroute("**/users/export*");
      } else {
        // The connection drops once: the dialog says so in words and keeps the choices.
        await page.route("**/users/export*", (route) => route.abort("connectionreset"), {
          times: 1,
        });
        await exporter.getByRole("button", { name: "Export JSON" }).click();
        await exporter.getByText("Could not reach the server.").waitFor();
        await expectAccessible(page, "export failed (phone)");
      }
      const progress = await recordProgress(page);
      const download = await downloadBy(page, () =>
        exporter.getByRole("button", { name: `Export ${format.toUpperCase()}` }).click(),
      );
      expect(download.suggestedFilename()).toMatch(
        new RegExp(`^users-\\d{4}-\\d{2}-\\d{2}\\.${format}$`),
      );
      await expect.poll(() => focusedName(page)).toMatch(/^Saved users-.*: 3 users/);
      expect((await progress()).some((text) => / of 3 users · /.test(text))).toBe(true);
      await expectAccessible(page, `export saved (${width})`);
      await screenshot(page, `export-saved-${width}`);

      const listed = (await adminGet<UserPage>(app, `users?search=${term}&limit=100`)).users;
      const expected = listed
        .map((user) => ({ id: user.id, email: user.email, name: user.name }))
        .sort((a, b) => a.id.localeCompare(b.id));
      const text = await textOf(download);
      if (format === "csv") {
        const { header, records } = parseCsv(text);
        expect(header).not.toContain("passwordHash");
        expect(text).toContain(`'=Formula ${term}`);
        const rows = records.map(({ cells }) => ({
          id: cells.id!,
          email: cells.email!,
          name: unguardFormula(cells.name!),
        }));
        expect(rows.sort((a, b) => a.id.localeCompare(b.id))).toEqual(expected);
      } else {
        const rows = JSON.parse(text) as {
          id: string;
          email: string;
          name: string;
          passwordHash: string;
        }[];
        expect(
          rows
            .map(({ id, email, name }) => ({ id, email, name }))
            .sort((a, b) => a.id.localeCompare(b.id)),
        ).toEqual(expected);
        for (const row of rows) expect(row.passwordHash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
        const { entries } = await adminGet<{ entries: { detail: string | null }[] }>(
          app,
          "audit?action=user.export",
        );
        expect(entries[0]?.detail).toContain("with password hashes");
      }
      await exporter.getByRole("button", { name: "Done" }).click();
      await page.close();
    }
  });

  it("checks a 1,203-row CSV first, naming exactly the bad rows, then imports the rest", async () => {
    const term = termOf("imp");
    // A real user's hash (better-auth's scrypt), moved onto a new id and email.
    const source = await signUp(app, { label: "hash-source" });
    const exported = await fetch(
      `${app.url}/_svc/admin/auth/users/export?format=json&passwordHashes=true&search=${encodeURIComponent(source.email)}`,
      adminInit(),
    );
    const [{ passwordHash }] = (await exported.json()) as [{ passwordHash: string }];

    const bad = { email: 100, name: 600, repeat: 800, date: 1000 };
    const lines: number[] = [];
    let line = 2;
    let csv = csvRow(["id", "email", "name", "createdAt", "passwordHash"]);
    for (let i = 0; i < 1203; i++) {
      const row = [
        `${term}-id-${i}`,
        i === 0 ? `${term}-moved@example.com` : `${term}-${i}@example.com`,
        i === 0 ? `=Formula ${term}` : i === 1 ? 'Ann "A", Jr.\r\nSecond line' : `User ${i}`,
        i === 2 ? "2020-01-02T03:04:05.000Z" : "",
        i === 0 ? passwordHash : "",
      ];
      if (i === bad.email) row[1] = "not-an-email";
      if (i === bad.name) row[2] = "";
      if (i === bad.repeat) row[1] = `${term}-5@example.com`;
      if (i === bad.date) row[3] = "yesterday";
      const record = csvRow(row);
      lines.push(line);
      line += record.split("\n").length - 1;
      csv += record;
    }

    const page = await signedInAt(browser.context, app, "users");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const importer = dialog(page, "Import users");
    await importer.getByLabel("File (CSV or JSON)").setInputFiles({
      name: "people.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(csv),
    });
    await importer.getByText("people.csv: 1,203 users, sent in 3 requests.").waitFor();
    await expectAccessible(page, "import dialog, file picked");
    await screenshot(page, "import-file-picked");

    let progress = await recordProgress(page);
    await importer.getByRole("button", { name: "Check 1,203 users" }).click();
    await expect
      .poll(() => focusedName(page), { timeout: 30_000 })
      .toBe("Checked 1,203 rows of people.csv: 1,199 users can be imported.");
    expect(await progress()).toEqual(
      expect.arrayContaining(["Checking 500 of 1,203 rows", "Checking 1,000 of 1,203 rows"]),
    );
    const checked = await reportedRows(page);
    expect(checked.map((item) => item.row)).toEqual([
      lines[bad.email],
      lines[bad.name],
      lines[bad.repeat],
      lines[bad.date],
    ]);
    expect(checked[0]!.text).toContain("not-an-email · invalid");
    expect(checked[0]!.text).toContain("email: must be an email address");
    expect(checked[1]!.text).toContain("name: is required");
    expect(checked[2]!.text).toContain(`skipped`);
    expect(checked[2]!.text).toContain(`email: the same as row ${lines[5]}`);
    expect(checked[3]!.text).toContain("createdAt: must be a date");
    const report = await downloadBy(page, () =>
      importer.getByRole("button", { name: "Download report (CSV)" }).click(),
    );
    expect(report.suggestedFilename()).toBe("people-import-report.csv");
    expect(parseCsv(await textOf(report)).records.map(({ cells }) => Number(cells.row))).toEqual(
      checked.map((item) => item.row),
    );
    await expectAccessible(page, "import dry-run report");
    await screenshot(page, "import-dry-run-report");
    expect(await usersMatching(app, term)).toBe(0);

    progress = await recordProgress(page);
    await importer.getByRole("button", { name: "Import 1,199 users" }).click();
    await expect
      .poll(() => focusedName(page), { timeout: 30_000 })
      .toBe("Imported people.csv: 1,199 users created.");
    expect(
      (await progress()).some((text) => text.startsWith("Imported 500 of 1,203 rows · ")),
    ).toBe(true);
    const imported = await reportedRows(page);
    expect(imported.map((item) => item.row)).toEqual(checked.map((item) => item.row));
    expect(imported[2]!.text).toContain("email: a user with this email exists");
    await expectAccessible(page, "import final report");

    expect(await usersMatching(app, term)).toBe(1199);
    const moved = await adminGet<UserDetail>(app, `users/${term}-id-0`);
    expect(moved.user).toMatchObject({
      email: `${term}-moved@example.com`,
      name: `=Formula ${term}`,
    });
    expect((await adminGet<UserDetail>(app, `users/${term}-id-1`)).user.name).toBe(
      'Ann "A", Jr.\r\nSecond line',
    );
    expect((await adminGet<UserDetail>(app, `users/${term}-id-2`)).user.createdAt).toBe(
      "2020-01-02T03:04:05.000Z",
    );
    // The hash came through untouched: the moved user signs in with the source's password.
    await signIn(
      app,
      { ...source, email: `${term}-moved@example.com` },
      "Mozilla/5.0 Chrome/144.0",
    );
    await page.close();
  });

  it("refuses a file it cannot import, and cancels a JSON import between requests at phone width", async () => {
    const term = termOf("cancel");
    const page = await signedInAt(browser.context, app, "users");
    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const importer = dialog(page, "Import users");
    const input = importer.getByLabel("File (CSV or JSON)");
    await input.setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("x"),
    });
    await importer.getByText("notes.txt is not a .csv or .json file.").waitFor();
    expect(await importer.getByRole("button", { name: "Check file" }).isDisabled()).toBe(true);
    await expectAccessible(page, "import dialog, file refused (phone)");

    const users = Array.from({ length: 1200 }, (_, i) => ({
      id: `${term}-id-${i}`,
      email: `${term}-${i}@example.com`,
      name: `User ${i}`,
    }));
    // The second import request waits until Cancel is pressed, so it is in flight then.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      let sent = 0;
      void page.route("**/_svc/admin/auth/users/import*", async (route) => {
        if (route.request().url().includes("dryRun")) return route.continue();
        sent++;
        if (sent === 2) {
          resolve();
          await new Promise<void>((go) => {
            release = go;
          });
        }
        await route.continue();
      });
    });
    await input.setInputFiles({
      name: "people.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(users)),
    });
    await importer.getByRole("button", { name: "Check 1,200 users" }).click();
    await importer.getByRole("button", { name: "Import 1,200 users" }).click({ timeout: 30_000 });
    await held;
    // The clicked button is gone: focus waits on Cancel, not on the page body.
    expect(await focusedName(page)).toBe("Cancel");
    await importer.getByText("Imported 500 of 1,200 rows · 500 users created").waitFor();
    await expectAccessible(page, "import in progress (phone)");
    await screenshot(page, "import-progress-phone");
    await importer.getByRole("button", { name: "Cancel" }).click();
    await importer.getByRole("button", { name: "Stopping after this request…" }).waitFor();
    expect(await focusedName(page)).toBe("Stopping after this request…");
    release();
    await expect
      .poll(() => focusedName(page), { timeout: 30_000 })
      .toBe(
        "Import canceled after 1,000 of 1,200 rows: 1,000 users created. Rows from 1,001 on were not sent. Import the file again to finish (existing users are skipped).",
      );
    await expectAccessible(page, "import canceled (phone)");
    await screenshot(page, "import-canceled-phone");
    expect(await usersMatching(app, term)).toBe(1000);
    await page.close();
  });

  it("stops at a failed request and says which rows landed", async () => {
    const term = termOf("fail");
    const page = await signedInAt(browser.context, app, "users");
    const rows = Array.from({ length: 700 }, (_, i) =>
      csvRow([`${term}-${i}@example.com`, `User ${i}`]),
    );
    // The connection drops on the second import request: the answer is lost.
    let sent = 0;
    await page.route("**/_svc/admin/auth/users/import*", async (route) => {
      if (route.request().url().includes("dryRun")) return route.continue();
      sent++;
      return sent === 2 ? route.abort("connectionreset") : route.continue();
    });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const importer = dialog(page, "Import users");
    await importer.getByLabel("File (CSV or JSON)").setInputFiles({
      name: "people.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(csvRow(["email", "name"]) + rows.join("")),
    });
    await importer.getByRole("button", { name: "Check 700 users" }).click();
    await importer.getByRole("button", { name: "Import 700 users" }).click({ timeout: 30_000 });
    await expect
      .poll(() => focusedName(page), { timeout: 30_000 })
      .toBe(
        "Import stopped after 500 of 700 rows: 500 users created. Rows 502–701 got no answer: they may or may not have landed. Import the file again to finish (existing users are skipped).",
      );
    await importer.getByText("Could not reach the server.").waitFor();
    expect(await usersMatching(app, term)).toBe(500);
    await page.close();
  });
});
