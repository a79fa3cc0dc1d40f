import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appForThisFile } from "./harness.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// With CI set, a missing Chromium fails the run instead of skipping it.
const ready = existsSync(CHROMIUM) || process.env.CI !== undefined;

/** What the page runs: @svc/client, bundled for browsers, watching the caller's messages. */
const PAGE_SCRIPT = `
import { createClient } from "@svc/client";
const live = (window.svcLive = { values: [], states: [], errors: [] });
const client = createClient({
  url: location.origin,
  onConnectionStateChange: (state) => live.states.push(state),
});
client.subscribe(
  { path: "messages:list", kind: "query", visibility: "public" },
  { channel: "browser" },
  (value) => live.values.push(value),
  { onError: (error) => live.errors.push(error.code) },
);
`;

const app = appForThisFile();

describe.skipIf(!ready)("live queries in Chromium, with the session cookie", () => {
  let context: BrowserContext;
  let profile: string;
  let bundle: string;

  beforeAll(async () => {
    const built = await esbuild.build({
      stdin: { contents: PAGE_SCRIPT, resolveDir: import.meta.dirname, loader: "js" },
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      target: "es2022",
    });
    bundle = built.outputFiles[0]!.text;
    profile = await mkdtemp(path.join(tmpdir(), "svc-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
    });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it("subscribes from a page over the same-origin cookie and receives the user's new message", async () => {
    const page = await context.newPage();
    await page.goto(app.url);
    const signedUp = await page.evaluate(async () => {
      const response = await fetch("/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          email: "browser@example.com",
          password: "a long password",
          name: "B",
        }),
      });
      return response.status;
    });
    expect(signedUp).toBe(200);
    await page.addScriptTag({ content: bundle });
    await expect
      .poll(() =>
        page.evaluate(
          () => (window as unknown as { svcLive: { values: unknown[] } }).svcLive.values.length,
        ),
      )
      .toBe(1);
    const sent = await page.evaluate(async () => {
      const response = await fetch("/_svc/rest/messages/send", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ body: "from the browser", channel: "browser" }),
      });
      return response.status;
    });
    expect(sent).toBe(200);
    const live = () =>
      page.evaluate(
        () =>
          (
            window as unknown as {
              svcLive: { values: { body: string }[][]; states: string[]; errors: string[] };
            }
          ).svcLive,
      );
    await expect.poll(async () => (await live()).values.length, { timeout: 10_000 }).toBe(2);
    const { values, states, errors } = await live();
    expect(values[0]).toEqual([]);
    expect(values[1]!.map((message) => message.body)).toEqual(["from the browser"]);
    expect(states).toEqual(["connecting", "open"]);
    expect(errors).toEqual([]);
  });
});
