/**
 * The jobs view's future (issue 52 point 5): each cron job shows its
 * schedule in words and when it next runs; "Run now" runs the job (the
 * example app's sweep stamps `maintenance/status`) and leaves a `cron.run`
 * line in the audit trail; each queue shows its backlog. At laptop and
 * phone widths, axe-clean.
 */
import { describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { dialog, expectNoSidewaysScroll, signedInAt, VIEWPORTS } from "./support/dashboard-page.ts";
import { adminGet, OPERATOR, type RunningApp } from "./support/example-app.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

type AuditPage = {
  entries: { action: string; operator: string; targetId: string; outcome: string }[];
};

/** When the example app's sweep last ran, through its public REST route. */
async function lastSweepAt(app: RunningApp): Promise<number> {
  const response = await fetch(`${app.url}/_svc/rest/maintenance/status`);
  expect(response.status).toBe(200);
  const { lastSweepAt } = (await response.json()) as { lastSweepAt: string | null };
  return lastSweepAt === null ? 0 : Date.parse(lastSweepAt);
}

describe.skipIf(!ready)("the jobs view's future", () => {
  const { app, browser } = browserTestbed();

  it("shows a cron job's next run in words and runs it now, audited", async () => {
    const page = await signedInAt(browser.context, app, "logs/jobs");
    await page.setViewportSize(VIEWPORTS.desktop);
    const sweep = page.locator('.jobs-table tr[data-job="maintenance:sweep"]');
    await sweep.waitFor();
    expect(await sweep.locator('td[data-label="Schedule (UTC)"]').textContent()).toBe(
      "Every minute * * * * *",
    );
    const next = sweep.locator('td[data-label="Next run"] time');
    const nextAt = Date.parse((await next.getAttribute("datetime")) ?? "");
    expect(nextAt).toBeGreaterThan(Date.now() - 5_000);
    expect(nextAt).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(await next.getAttribute("title")).toMatch(/UTC$/);
    const notifications = page.locator('.queues-table tr[data-queue="svc-example-notifications"]');
    expect(await notifications.locator('td[data-label="Waiting"]').textContent()).toMatch(
      /^\d+ \(/,
    );
    await expectAccessible(page, "jobs, next runs and backlogs");

    const before = Date.now();
    await sweep.getByRole("button", { name: "Run now: maintenance:sweep" }).click();
    const confirm = dialog(page, "Run maintenance:sweep now?");
    await expectAccessible(page, "jobs, run now confirmation");
    await confirm.getByRole("button", { name: "Run now", exact: true }).click();
    await page.getByText(/^maintenance:sweep ran in shard default \(\d+ ms\)\.$/).waitFor();
    expect(await lastSweepAt(app)).toBeGreaterThanOrEqual(before - 1_000);
    const audit = await adminGet<AuditPage>(app, "audit?action=cron.run");
    expect(audit.entries[0]).toMatchObject({
      action: "cron.run",
      operator: OPERATOR,
      targetId: "maintenance:sweep",
      outcome: "ok",
    });
    await page.close();
  });

  it("fits a phone: the next run, the backlog and run now are usable at 390 px", async () => {
    const page = await signedInAt(browser.context, app, "logs/jobs");
    await page.setViewportSize(VIEWPORTS.phone);
    const sweep = page.locator('.jobs-table tr[data-job="maintenance:sweep"]');
    await sweep.locator('td[data-label="Next run"] time').waitFor();
    await expectNoSidewaysScroll(page.locator("html"));
    await expectAccessible(page, "jobs (phone)");
    await sweep.getByRole("button", { name: "Run now: maintenance:sweep" }).click();
    await expectAccessible(page, "jobs, run now confirmation (phone)");
    await dialog(page, "Run maintenance:sweep now?")
      .getByRole("button", { name: "Run now", exact: true })
      .click();
    await page.getByText(/^maintenance:sweep ran in shard default/).waitFor();
    await page.close();
  });
});
