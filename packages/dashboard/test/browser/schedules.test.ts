/**
 * The Schedules page (issue 47): an operator picks a shard, sees its jobs
 * (ctx.scheduler) with state, due time, function and who they run as,
 * filters them, cancels one and then every pending job a filter selects;
 * the same across every shard the registry knows ("All shards"), each job
 * linking to its shard's own view.
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
async function roomWithJobs(
  app: RunningApp,
  count: number,
  shard = `room-sched-${randomUUID().slice(0, 8)}`,
): Promise<{ shard: string }> {
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

/** Waits until the registry knows the shards whose key contains `search`, with `jobs` jobs in all. */
async function registryKnows(app: RunningApp, search: string, jobs: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const response = await fetch(
          `${app.url}/_svc/admin/schedules/jobs?search=${search}`,
          adminInit(),
        );
        return ((await response.json()) as JobPage).jobs.length;
      },
      { timeout: 20_000 },
    )
    .toBe(jobs);
}

/** Two new rooms, the first with two jobs, the second with one; the registry knows both. */
async function roomsAcross(app: RunningApp): Promise<{ search: string; rooms: string[] }> {
  const search = `room-across-${randomUUID().slice(0, 8)}`;
  const rooms = [`${search}-1`, `${search}-2`];
  await roomWithJobs(app, 2, rooms[0]);
  await roomWithJobs(app, 1, rooms[1]);
  await registryKnows(app, search, 3);
  return { search, rooms };
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

  it("lists every shard's jobs with a link to each shard, cancels one and a filtered set across shards", async () => {
    const { search, rooms } = await roomsAcross(app);
    const page = await signedInAt(browser.context, app, "schedules");
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.getByLabel("Shards").selectOption("all");
    await page.getByLabel("Shard key contains", { exact: true }).fill(search);
    const rows = page.locator("tr[data-job-id]");
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
    const shards = await rows.getByRole("link").allTextContents();
    expect(shards.sort()).toEqual([rooms[0], rooms[0], rooms[1]]);
    await expectAccessible(page, "schedules, all shards");

    await rows
      .filter({ has: page.getByRole("link", { name: rooms[1], exact: true }) })
      .getByRole("button", { name: /^Cancel job / })
      .click();
    await dialog(page, "Cancel this job")
      .getByRole("button", { name: "Cancel job", exact: true })
      .click();
    await page.getByText("1 job canceled.", { exact: true }).waitFor();
    expect(await states(app, rooms[1]!)).toEqual(["canceled"]);

    await page.getByLabel("Function", { exact: true }).fill("messages:expire");
    await page
      .getByRole("button", { name: "Cancel matching pending jobs in every shard…" })
      .click();
    const every = dialog(page, "Cancel pending jobs in every shard");
    await expectAccessible(page, "schedules, cancel across shards");
    await every.getByRole("button", { name: "Cancel jobs", exact: true }).click();
    await page.getByText("2 jobs canceled.", { exact: true }).waitFor();
    expect(await states(app, rooms[0]!)).toEqual(["canceled", "canceled"]);

    // A job's shard opens that shard's own view.
    await rows.getByRole("link", { name: rooms[1], exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("shard")).toBe(rooms[1]);
    expect(new URL(page.url()).searchParams.get("all")).toBeNull();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    await page.close();
  });

  it("fits a phone across shards: the list with its shard links is usable and accessible at 390 px", async () => {
    const { search } = await roomsAcross(app);
    const page = await signedInAt(browser.context, app, `schedules?all=1&shard=${search}`);
    await page.setViewportSize(VIEWPORTS.phone);
    await expect.poll(() => page.locator("tr[data-job-id]").count(), { timeout: 10_000 }).toBe(3);
    await expectNoSidewaysScroll(page.locator("main"));
    await expectAccessible(page, "schedules, all shards (phone)");
    await page.getByRole("button", { name: "Cancel all pending jobs in every shard…" }).click();
    await expectAccessible(page, "schedules, cancel across shards (phone)");
    await dialog(page, "Cancel pending jobs in every shard")
      .getByRole("button", { name: "Cancel jobs", exact: true })
      .click();
    await page.getByText("3 jobs canceled.", { exact: true }).waitFor();
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
