/**
 * Times and addresses (issue 52, point 7) in Chromium against the example
 * app: a call's detail shows its absolute time in the operator's time zone
 * with UTC on hover, and an address the dashboard does not know says "not
 * found" instead of showing the users list; at the laptop and the phone
 * viewport, with axe finding nothing serious in light and dark mode.
 */
import { describe, expect, it } from "vitest";
import type { CallRecord } from "../../ui/api/log-types.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { dialog, signedInAt, VIEWPORTS } from "./support/dashboard-page.ts";
import { adminInit, type RunningApp } from "./support/example-app.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/** A fresh `hello:ping` call's record, once the log store holds it. */
async function pingRecord(app: RunningApp): Promise<CallRecord> {
  const started = Date.now();
  const response = await fetch(`${app.url}/_svc/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ path: "hello:ping", args: { name: "times" } }),
  });
  expect(response.status).toBe(200);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await fetch(
      `${app.url}/_svc/admin/logs?function=hello:ping&since=${started - 1_000}`,
      adminInit(),
    );
    const { records } = (await answer.json()) as { records: CallRecord[] };
    if (records[0] !== undefined) return records[0];
    if (Date.now() > deadline) throw new Error("no hello:ping record");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!ready)("times and unknown addresses", () => {
  const { app, browser } = browserTestbed();

  it.each(Object.entries(VIEWPORTS))(
    "shows a call's absolute time with UTC on hover, and says an unknown address is not found (%s)",
    async (width, viewport) => {
      const record = await pingRecord(app);
      const page = await signedInAt(browser.context, app, `logs?record=${record.requestId}`);
      await page.setViewportSize(viewport);
      const detail = dialog(page, "Call hello:ping");
      const time = detail.locator(`time[datetime="${record.time}"]`);
      await time.waitFor();
      const year = String(new Date(record.time).getFullYear());
      expect(await time.textContent()).toContain(year);
      expect(await time.getAttribute("title")).toContain(
        `${record.time.slice(0, 19).replace("T", " ")} UTC`,
      );
      // The list's relative times say the same on hover.
      await page.keyboard.press("Escape");
      const listed = page.locator(`tr[data-request-id="${record.requestId}"] time`);
      expect(await listed.getAttribute("title")).toContain("UTC");

      await page.goto(`${app.url}/_svc/dashboard/userz/${width}`);
      await page.getByRole("heading", { name: "Page not found", level: 1 }).waitFor();
      await page.getByText(`/_svc/dashboard/userz/${width}`).waitFor();
      expect(await page.title()).toContain("Not found");
      await expectAccessible(page, `an unknown address (${width})`);
      await page.getByRole("link", { name: "Go to the users list" }).click();
      await page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
      await page.close();
    },
  );
});
