/**
 * The Schedules page (issue 47): an operator picks a shard, sees its jobs
 * (ctx.scheduler) with state, due time, function and who they run as,
 * filters them, cancels one and then every pending job a filter selects.
 * At laptop and phone widths, axe-clean.
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

type JobPage = { jobs: { id: string; state: string; function: string }[] };

/** A new room where a user sent `count` messages that delete themselves in an hour (one job each). */
async function roomWithJobs(app: RunningApp, count: number): Promise<{ shard: string }> {
  const shard = `room-sched-${randomUUID().slice(0, 8)}`;
  const ann = await signUp(app, { label: "schedules" });
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${app.url}/_svc/rpc?shardKey=${shard}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: ann.cookie, origin: app.url },
      body: JSON.stringify({
        path: "messages:sendEphemeral",
        args: { body: `m${i}`, channel: "general", seconds: 3_600 },
      }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
  return { shard };
}

/** The shard's job states, through the admin API. */
async function states(app: RunningApp, shard: string): Promise<string[]> {
  const response = await fetch(`${app.url}/_svc/admin/schedules/shards/${shard}`, adminInit());
  expect(response.status).toBe(200);
  return ((await response.json()) as JobPage).jobs.map((job) => job.state).sort();
}

describe.skipIf(!ready)("the Schedules page", () => {
  const { app, browser } = browserTestbed();

  it("lists a shard's jobs, filters them, cancels one and then the rest", async () => {
    const { shard } = await roomWithJobs(app, 3);
    const page = await signedInAt(browser.context, app, "schedules");
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.getByText("Pick a shard", { exact: true }).waitFor();
    await page.getByRole("link", { name: "Schedules" }).waitFor();
    await page.getByLabel("Shard", { exact: true }).fill(shard);
    const rows = page.locator("tr[data-job-id]");
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
    expect(await rows.first().textContent()).toContain("messages:expire");
    expect(await rows.first().textContent()).toContain("pending");
    await expectAccessible(page, "schedules, a shard's jobs");

    await page.getByLabel("State").selectOption("canceled");
    await page.getByText("No jobs match", { exact: true }).waitFor();
    await page.getByLabel("State").selectOption("");
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);

    await rows
      .first()
      .getByRole("button", { name: /^Cancel job / })
      .click();
    const one = dialog(page, "Cancel this job");
    await expectAccessible(page, "schedules, cancel one job");
    await one.getByRole("button", { name: "Cancel job", exact: true }).click();
    await page.getByText("1 job canceled.", { exact: true }).waitFor();
    expect(await states(app, shard)).toEqual(["canceled", "pending", "pending"]);

    await page.getByLabel("Function", { exact: true }).fill("messages:expire");
    await page.getByRole("button", { name: "Cancel matching pending jobs…" }).click();
    const rest = dialog(page, "Cancel pending jobs");
    await rest.getByRole("button", { name: "Cancel jobs", exact: true }).click();
    await page.getByText("2 jobs canceled.", { exact: true }).waitFor();
    expect(await states(app, shard)).toEqual(["canceled", "canceled", "canceled"]);
    expect(new URL(page.url()).searchParams.get("shard")).toBe(shard);
    await page.close();
  });

  it("fits a phone: the list and the cancel confirmation are usable and accessible at 390 px", async () => {
    const { shard } = await roomWithJobs(app, 1);
    const page = await signedInAt(browser.context, app, `schedules?shard=${shard}`);
    await page.setViewportSize(VIEWPORTS.phone);
    await page.locator("tr[data-job-id]").first().waitFor();
    await expectNoSidewaysScroll(page.locator("main"));
    await expectAccessible(page, "schedules (phone)");
    await page.getByRole("button", { name: /^Cancel job / }).click();
    await expectAccessible(page, "schedules, cancel one job (phone)");
    await dialog(page, "Cancel this job")
      .getByRole("button", { name: "Cancel job", exact: true })
      .click();
    await page.getByText("1 job canceled.", { exact: true }).waitFor();
    expect(await states(app, shard)).toEqual(["canceled"]);
    await page.close();
  });
});
