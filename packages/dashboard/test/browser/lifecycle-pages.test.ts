/**
 * The Migrations and Backups pages (issue 52, point 8) in Chromium against
 * the example app: a dry run shows its result shard by shard, a run is
 * followed to completion, a backup taken now appears in the list, downloads
 * as the stored file and restores into a new shard; the schedule is shown.
 * At the laptop and the phone viewport, axe-clean in light and dark mode.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import {
  dialog,
  expectNoSidewaysScroll,
  screenshot,
  signedInAt,
  VIEWPORTS,
} from "./support/dashboard-page.ts";
import { adminGet, adminInit, OPERATOR } from "./support/example-app.ts";
import { roomWithMessages } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/** The example app's one migration (examples/app/svc/migrations/). */
const MIGRATION = "2026-11-28-notice-event";

describe.skipIf(!ready)("the Migrations and Backups pages", () => {
  const { app, browser } = browserTestbed();

  it.each(Object.entries(VIEWPORTS))(
    "dry-runs the app's migration and runs it to completion (%s)",
    async (width, viewport) => {
      const shard = await roomWithMessages(app, 1, `room-mig-${width}`);
      const page = await signedInAt(browser.context, app, "overview");
      await page.setViewportSize(viewport);
      await page.getByRole("link", { name: "Migrations", exact: true }).click();
      await page.getByRole("heading", { name: "Migrations", level: 1 }).waitFor();
      await page.locator(`tr[data-migration="${MIGRATION}"]`).getByText("notices").waitFor();

      await page.getByRole("button", { name: `Dry run ${MIGRATION}` }).click();
      await page
        .getByText(
          new RegExp(
            `^Dry run of ${MIGRATION} over \\d+ shards?: 0 would change, 0 would be deleted, 0 would fail\\. Nothing was written\\.$`,
          ),
        )
        .waitFor();
      await page.getByRole("row").filter({ hasText: shard }).waitFor();
      await expectNoSidewaysScroll(page.locator("html"));
      await expectAccessible(page, `Migrations, dry run (${width})`);

      await page.getByRole("button", { name: `Run ${MIGRATION}`, exact: true }).click();
      await dialog(page, `Run ${MIGRATION}?`)
        .getByRole("button", { name: "Run migration" })
        .click();
      const progress = page.getByRole("progressbar", { name: `Running ${MIGRATION}` });
      await progress.waitFor();
      await page.getByText(/^Finished: done in (\d+) of \1 shards; 0 changed/).waitFor();
      expect(await progress.getAttribute("value")).toBe(await progress.getAttribute("max"));
      // Each shard's own progress: its state and counts, as the shard reports them.
      const shardRow = page.locator(`tr[data-shard="${shard}"]`);
      await shardRow.locator('td[data-label="State"]', { hasText: /^done$/ }).waitFor();
      expect(await shardRow.locator('td[data-label="Failed"]').textContent()).toBe("0");
      await expectNoSidewaysScroll(page.locator("html"));
      await screenshot(page, `migrations-${width}`);
      await expectAccessible(page, `Migrations, run (${width})`);

      const { entries } = await adminGet<{
        entries: { action: string; targetId: string; outcome: string; operator: string }[];
      }>(app, "audit?action=migration.run");
      expect(entries.filter((entry) => entry.targetId === MIGRATION).slice(0, 2)).toEqual([
        expect.objectContaining({ outcome: "ok", operator: OPERATOR }),
        expect.objectContaining({ outcome: "ok", operator: OPERATOR }),
      ]);
      await page.close();
    },
  );

  it.each(Object.entries(VIEWPORTS))(
    "shows the schedule, takes a backup, downloads it and restores it into a new shard (%s)",
    async (width, viewport) => {
      const shard = await roomWithMessages(app, 2, `room-backup-${width}`);
      const page = await signedInAt(browser.context, app, "overview");
      await page.setViewportSize(viewport);
      await page.getByRole("link", { name: "Backups", exact: true }).click();
      await page.getByRole("heading", { name: "Backups", level: 1 }).waitFor();
      const schedule = page.getByTestId("backup-schedule");
      await schedule.waitFor();
      expect(await schedule.textContent()).toBe(
        "Every shard is backed up to the R2 bucket bound as BACKUPS on the schedule 0 3 * * * (cron, UTC); the 7 newest backups of each shard are kept. Each carries the shard's file metadata; the bytes stay in the files bucket.",
      );

      await page.getByLabel("Shard to back up now").fill(shard);
      await page.getByRole("button", { name: "Back up now" }).click();
      await page.getByText(new RegExp(`^Shard ${shard} backed up: \\d+ documents\\.$`)).waitFor();
      await page.getByRole("searchbox", { name: "Shard" }).fill(shard);
      await page.getByRole("button", { name: "Show", exact: true }).click();
      const row = page.getByRole("row").filter({ hasText: shard });
      await row.waitFor();
      expect(await row.count()).toBe(1);
      await expectNoSidewaysScroll(page.locator("html"));
      await screenshot(page, `backups-${width}`);
      await expectAccessible(page, `Backups (${width})`);

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        row.getByRole("button", { name: /^Download backup of / }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^${shard}-\\d{4}-.*Z\\.ndjson$`));
      const file = path.join(await mkdtemp(path.join(tmpdir(), "svc-backup-")), "backup.ndjson");
      await download.saveAs(file);
      const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
      const header = JSON.parse(lines[0]!) as { shardKey: string; tables: Record<string, number> };
      expect(header.shardKey).toBe(shard);
      const documents = Object.values(header.tables).reduce((sum, n) => sum + n, 0);
      expect(lines).toHaveLength(documents + 1);

      await row.getByRole("button", { name: /^Restore backup of / }).click();
      const restore = dialog(page, "Restore a backup");
      const copy = `${shard}-copy`;
      await restore.getByLabel("Restore into shard").fill(copy);
      const confirm = restore.getByRole("button", { name: "Restore backup" });
      expect(await confirm.isDisabled()).toBe(true);
      await restore.getByLabel(/^Type .* to confirm$/).fill(copy);
      await expectAccessible(page, `Restore dialog (${width})`);
      await confirm.click();
      await page.getByText(`Restored ${documents} documents into shard ${copy}.`).waitFor();
      await expect
        .poll(
          async () => {
            const answer = await fetch(`${app.url}/_svc/admin/data/shards/${copy}`, adminInit());
            return answer.status === 200
              ? ((await answer.json()) as { documents: number }).documents
              : 0;
          },
          { timeout: 30_000, interval: 250 },
        )
        .toBe(documents);
      const { entries } = await adminGet<{
        entries: { action: string; targetId: string; outcome: string; detail: string | null }[];
      }>(app, `audit?target=${shard}`);
      expect(entries.map((entry) => entry.action)).toEqual(
        expect.arrayContaining(["shard.backup", "shard.export"]),
      );
      await page.close();
    },
  );
});
