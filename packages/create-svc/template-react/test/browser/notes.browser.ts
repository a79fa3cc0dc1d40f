import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, chromium, type Page, type Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, startApp } from "./server.ts";

let app: RunningApp;
let browser: Browser;
let ann: Page;
let annOtherTab: Page;
let bob: Page;
const run = Date.now().toString(36);
/** Every console error and warning and page error of the test's pages, with the page's name. */
const consoleErrors: string[] = [];

/** Keeps `page`'s console errors (a socket closed while connecting logs one, for instance). */
function watchConsole(page: Page, name: string): Page {
  page.on("console", (message) => {
    // Chromium logs a socket closed while connecting as a warning.
    if (message.type() === "error" || message.type() === "warning") {
      consoleErrors.push(`${name}: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => consoleErrors.push(`${name}: ${error.message}`));
  return page;
}

const { CHROMIUM_PATH } = process.env;
const chromiumPath =
  CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

async function signUp(page: Page, name: string): Promise<void> {
  await page.goto(`${app.url}/sign-up`);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(`${name.toLowerCase()}-${run}@example.com`);
  await page.getByLabel("Password").fill("a long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { name: "Your notes" }).waitFor();
}

async function addNote(page: Page, text: string): Promise<void> {
  await page.getByLabel("New note").fill(text);
  await page.getByRole("button", { name: "Add note" }).click();
}

const notes = (page: Page) => page.getByRole("list", { name: "Notes" }).getByRole("listitem");

/** Holds the page's next RPC calls until `release()`: the server has not answered yet. */
async function holdRpc(page: Page): Promise<() => Promise<void>> {
  const held: Route[] = [];
  await page.route("**/_svc/rpc", (route) => void held.push(route));
  return async () => {
    await page.unroute("**/_svc/rpc");
    for (const route of held) await route.continue();
  };
}

/** axe-core's serious and critical violations on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const axe = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
  await page.addScriptTag({ content: readFileSync(axe, "utf8") });
  const result = await page.evaluate(async () => {
    const { violations } = await (
      window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> };
      }
    ).axe.run();
    return violations;
  });
  return result.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
}

beforeAll(async () => {
  app = await startApp();
  browser = await chromium.launch({
    ...(chromiumPath ? { executablePath: chromiumPath } : {}),
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const annContext = await browser.newContext();
  ann = watchConsole(await annContext.newPage(), "ann");
  annOtherTab = watchConsole(await annContext.newPage(), "ann's other tab");
  bob = watchConsole(await (await browser.newContext()).newPage(), "bob");
  await signUp(ann, "Ann");
  await annOtherTab.goto(app.url);
  await annOtherTab.getByRole("heading", { name: "Your notes" }).waitFor();
  await signUp(bob, "Bob");
});

afterAll(async () => {
  await browser?.close();
  await app?.dispose();
});

describe("the React template in Chromium", () => {
  it("signs up and signs in with no error in the browser console", async () => {
    // Ann and Bob signed up in beforeAll; Ann now signs in again from a new browser.
    const page = watchConsole(await (await browser.newContext()).newPage(), "ann signing in");
    await page.goto(`${app.url}/sign-in`);
    await page.getByLabel("Email").fill(`ann-${run}@example.com`);
    await page.getByLabel("Password").fill("a long password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Your notes" }).waitFor();
    // The live list answered over its socket (a socket closed while connecting logs an error).
    await page.getByText("No notes yet.").waitFor();
    await page.waitForTimeout(500);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it("shows a note added in one tab in the user's other tab within 1 s, and never to another user", async () => {
    await addNote(ann, "from the first tab");
    const started = Date.now();
    await notes(annOtherTab).filter({ hasText: "from the first tab" }).waitFor({ timeout: 1000 });
    expect(Date.now() - started).toBeLessThan(1000);
    await addNote(bob, "bob's own note");
    await notes(bob).filter({ hasText: "bob's own note" }).waitFor();
    expect(await bob.getByText("from the first tab").count()).toBe(0);
    expect(await ann.getByText("bob's own note").count()).toBe(0);
  });

  it("shows an optimistic note before the server answers, and rolls a refused one back with the server's message", async () => {
    let release = await holdRpc(ann);
    await addNote(ann, "before the answer");
    await notes(ann).filter({ hasText: "before the answer (saving…)" }).waitFor({ timeout: 1000 });
    await release();
    await notes(ann)
      .filter({ hasText: "before the answer" })
      .getByRole("button", { name: /Delete/ })
      .waitFor();

    release = await holdRpc(ann);
    await addNote(ann, "x".repeat(10_001));
    await notes(ann).filter({ hasText: "(saving…)" }).waitFor({ timeout: 1000 });
    await release();
    await ann
      .getByRole("alert")
      .filter({ hasText: "A note needs 1 to 10,000 characters." })
      .waitFor();
    expect(await notes(ann).filter({ hasText: "(saving…)" }).count()).toBe(0);
  });

  it("deletes optimistically, in every tab of the user", async () => {
    await addNote(ann, "to delete");
    const item = notes(annOtherTab).filter({ hasText: "to delete" });
    await item.waitFor();
    await notes(ann)
      .filter({ hasText: "to delete" })
      .getByRole("button", { name: /Delete/ })
      .click();
    await item.waitFor({ state: "detached", timeout: 2000 });
  });

  it("shows a note that deletes itself live, deletes it when due, and keeps one on request", async () => {
    const lifetime = ann.getByLabel("Deletes itself");
    await lifetime.selectOption({ label: "After 10 seconds" });
    await addNote(ann, "gone in ten");
    await lifetime.selectOption({ label: "After 10 seconds" });
    await addNote(ann, "kept past ten");
    const gone = notes(ann).filter({ hasText: "gone in ten" });
    const kept = notes(ann).filter({ hasText: "kept past ten" });
    // The job's state is watched live: pending, with its due time, in every tab.
    await gone.filter({ hasText: "(deletes itself at" }).waitFor({ timeout: 5000 });
    await notes(annOtherTab).filter({ hasText: "gone in ten" }).waitFor();
    await kept.getByRole("button", { name: "Keep note: kept past ten" }).click();
    await kept.filter({ hasText: "(kept)" }).waitFor({ timeout: 5000 });
    await ann.setViewportSize({ width: 390, height: 844 });
    expect(await seriousViolations(ann)).toEqual([]);
    await ann.setViewportSize({ width: 1280, height: 800 });
    await gone.waitFor({ state: "detached", timeout: 30_000 });
    await notes(annOtherTab).filter({ hasText: "gone in ten" }).waitFor({ state: "detached" });
    expect(await kept.filter({ hasText: "(kept)" }).count()).toBe(1);
    expect(await bob.getByText("gone in ten").count()).toBe(0);
  });

  it("recovers from a dropped connection (server restarted) and resubscribes", async () => {
    await app.stop();
    await ann.getByRole("status").filter({ hasText: "Reconnecting…" }).waitFor({ timeout: 5000 });
    await app.start();
    await ann
      .getByRole("status")
      .filter({ hasText: "Reconnecting…" })
      .waitFor({ state: "hidden", timeout: 20_000 });
    await annOtherTab
      .getByRole("status")
      .filter({ hasText: "Reconnecting…" })
      .waitFor({ state: "hidden", timeout: 20_000 });
    await addNote(annOtherTab, "after the restart");
    await notes(ann).filter({ hasText: "after the restart" }).waitFor({ timeout: 2000 });
  });

  it("attaches a file with a progress bar; the attachment downloads byte-identical", async () => {
    // Slow the upload down so the progress bar is seen on its way.
    const cdp = await ann.context().newCDPSession(ann);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 512 * 1024,
    });
    const bytes = Buffer.alloc(1_000_000, "svc attachment\n");
    await ann.getByLabel("New note").fill("with a file");
    await ann
      .getByLabel(/^Attachment/)
      .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: bytes });
    await ann.getByRole("button", { name: "Add note" }).click();
    const bar = ann.getByRole("progressbar", { name: "Uploading the attachment" });
    await expect
      .poll(async () => Number((await bar.getAttribute("value")) ?? 0), { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(await seriousViolations(ann)).toEqual([]);
    const link = ann.getByRole("link", { name: "Attachment of note: with a file" });
    await link.waitFor({ timeout: 30_000 });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await cdp.detach();
    expect(await bar.count()).toBe(0);
    const href = await link.getAttribute("href");
    const download = await fetch(new URL(href!, app.url));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    // The other tab sees the attachment live; Bob never sees the note or its link.
    await annOtherTab.getByRole("link", { name: "Attachment of note: with a file" }).waitFor();
    expect(await bob.getByRole("link", { name: /^Attachment of note/ }).count()).toBe(0);
  });

  it("has no serious or critical accessibility violations (axe)", async () => {
    expect(await seriousViolations(ann)).toEqual([]);
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${app.url}/sign-in`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${app.url}/sign-up`);
    await page.getByRole("heading", { name: "Create an account" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("removes the private rows from a tab's live lists when it signs out", async () => {
    await notes(annOtherTab).first().waitFor();
    // Everything the tab shows from now on, however briefly.
    await annOtherTab.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => seen.push(document.body.textContent ?? "")).observe(
        document.body,
        {
          subtree: true,
          childList: true,
          characterData: true,
        },
      );
    });
    await annOtherTab.getByRole("button", { name: "Sign out" }).click();
    await annOtherTab.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await annOtherTab.getByText("from the first tab").count()).toBe(0);
    // Bob signs in in the same tab: his (empty) list, never a glimpse of Ann's rows.
    await annOtherTab.getByLabel("Email").fill(`bob-${run}@example.com`);
    await annOtherTab.getByLabel("Password").fill("a long password");
    await annOtherTab.getByRole("button", { name: "Sign in" }).click();
    await notes(annOtherTab).filter({ hasText: "bob's own note" }).waitFor();
    const seen = await annOtherTab.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((text) => text.includes("from the first tab"))).toEqual([]);
  });
});
