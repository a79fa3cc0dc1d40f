/**
 * The Files page (issue 48): an operator picks a shard, uploads a file with
 * a progress bar, sees it listed with type, size and an image preview,
 * downloads it byte-identical, and deletes it after a confirmation (the
 * bytes go too). At laptop and phone widths, axe-clean.
 */
import { createHash, randomUUID } from "node:crypto";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "./support/accessibility.ts";
import { chromiumOrSkip } from "./support/chromium.ts";
import { dialog, expectNoSidewaysScroll, signedInAt, VIEWPORTS } from "./support/dashboard-page.ts";
import { adminInit, type RunningApp } from "./support/example-app.ts";
import { signUp } from "./support/seed.ts";
import { browserTestbed } from "./support/testbed.ts";

const ready = chromiumOrSkip();

/** A 1×1 PNG: small enough to preview, real enough for the browser to decode. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

type FilePage = { files: { storageId: string; size: number; contentType: string }[] };

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A new room the registry knows (files live in existing shards only): one message sent in it. */
async function newRoom(app: RunningApp): Promise<string> {
  const shard = `room-files-${randomUUID().slice(0, 8)}`;
  const ann = await signUp(app, { label: "files" });
  const response = await fetch(`${app.url}/_svc/rpc?shardKey=${shard}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: ann.cookie, origin: app.url },
    body: JSON.stringify({ path: "messages:send", args: { body: "hi", channel: "general" } }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return shard;
}

/** The shard's files, through the admin API. */
async function files(app: RunningApp, shard: string): Promise<FilePage["files"]> {
  const response = await fetch(`${app.url}/_svc/admin/files/shards/${shard}`, adminInit());
  expect(response.status).toBe(200);
  return ((await response.json()) as FilePage).files;
}

/** Stores `bytes` in the shard through the admin API, as a script or `svc files put` would. */
async function put(app: RunningApp, shard: string, bytes: Uint8Array, type: string) {
  const response = await fetch(
    `${app.url}/_svc/admin/files/shards/${shard}`,
    adminInit({
      method: "POST",
      headers: { "content-type": type },
      body: new Blob([bytes as BlobPart]),
    }),
  );
  expect(response.status).toBe(201);
  return ((await response.json()) as { storageId: string }).storageId;
}

describe.skipIf(!ready)("the Files page", () => {
  const { app, browser } = browserTestbed();

  it("uploads with progress, previews, downloads byte-identical and deletes", async () => {
    const shard = await newRoom(app);
    const page = await signedInAt(browser.context, app, "files");
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.getByText("Pick a shard", { exact: true }).waitFor();
    await page.getByLabel("Shard", { exact: true }).fill(shard);
    await page.getByText("No files", { exact: true }).waitFor();
    await expectAccessible(page, "files, an empty shard");

    // Slow the upload down so the progress bar is seen moving.
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 512 * 1024,
    });
    const big = new Uint8Array(1_500_000).map((_, i) => (i * 31) % 251);
    await page.getByLabel("File to upload").setInputFiles({
      name: "report.bin",
      mimeType: "application/octet-stream",
      buffer: Buffer.from(big),
    });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    const bar = page.getByRole("progressbar", { name: "Uploading report.bin" });
    await expect
      .poll(async () => Number((await bar.getAttribute("value")) ?? 0), { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(Number(await bar.getAttribute("max"))).toBe(big.byteLength);
    await expectAccessible(page, "files, an upload under way");
    await page.getByText(/^File _storage_\w+ uploaded\.$/).waitFor({ timeout: 30_000 });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const [uploaded] = await files(app, shard);
    expect(uploaded).toMatchObject({
      size: big.byteLength,
      contentType: "application/octet-stream",
    });

    const image = await put(app, shard, PNG, "image/png");
    await page.getByLabel("Shard", { exact: true }).fill("");
    await page.getByText("Pick a shard", { exact: true }).waitFor();
    await page.getByLabel("Shard", { exact: true }).fill(shard);
    const rows = page.locator("tr[data-file-id]");
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    const imageRow = page.locator(`tr[data-file-id="${image}"]`);
    expect(await imageRow.textContent()).toContain("image/png");
    expect(await imageRow.textContent()).toContain(`${PNG.byteLength} B`);
    const preview = imageRow.getByRole("img", { name: `Preview of ${image}` });
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth), {
        timeout: 10_000,
      })
      .toBe(1);
    await expectAccessible(page, "files, a shard's files");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: `Download ${uploaded!.storageId}` }).click(),
    ]);
    // The shared Chromium runs as a server: downloads have no local path, only a stream.
    const saved = await buffer(await download.createReadStream());
    expect(download.suggestedFilename()).toBe(uploaded!.storageId);
    expect(sha256(saved)).toBe(sha256(big));

    await imageRow.getByRole("button", { name: `Delete ${image}` }).click();
    const confirm = dialog(page, "Delete this file");
    await expectAccessible(page, "files, delete confirmation");
    await confirm.getByRole("button", { name: "Delete file", exact: true }).click();
    await page.getByText(`File ${image} deleted.`, { exact: true }).waitFor();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    expect((await files(app, shard)).map((file) => file.storageId)).toEqual([uploaded!.storageId]);
    const gone = await fetch(`${app.url}/_svc/admin/files/shards/${shard}/${image}`, adminInit());
    expect(gone.status).toBe(404);
    expect(new URL(page.url()).searchParams.get("shard")).toBe(shard);
    await page.close();
  });

  it("fits a phone: the list, preview and delete confirmation are usable and accessible at 390 px", async () => {
    const shard = await newRoom(app);
    const image = await put(app, shard, PNG, "image/png");
    const page = await signedInAt(browser.context, app, `files?shard=${shard}`);
    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByRole("img", { name: `Preview of ${image}` }).waitFor();
    await expectNoSidewaysScroll(page.locator("main"));
    await expectAccessible(page, "files (phone)");
    await page.getByRole("button", { name: `Delete ${image}` }).click();
    await expectAccessible(page, "files, delete confirmation (phone)");
    await dialog(page, "Delete this file")
      .getByRole("button", { name: "Delete file", exact: true })
      .click();
    await page.getByText("No files", { exact: true }).waitFor();
    expect(await files(app, shard)).toEqual([]);
    await page.close();
  });
});
