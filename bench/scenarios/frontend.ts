import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { codegen } from "@svc/cli";
import { scaffold } from "create-svc";
import { build } from "esbuild";
import { chromium, type Page } from "playwright-core";
import { median } from "../lib/load.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
// Inside the repository (git-ignored): the app builds against this checkout's sources. Under
// create-svc, as its slow test does: the template's build tools (`@cloudflare/vite-plugin`) are
// installed in create-svc's own node_modules, not at the root, so a sibling of bench/ finds none.
const APP = path.resolve(ROOT, "packages/create-svc/.tmp-react-bench");
const MUTATIONS = 200;
const WARM_UP = 10;

/** The frontend scenario: browser-to-browser latency and what the UI weighs. */
export interface FrontendResult {
  mutations: number;
  /** From submitting a note in one browser to it rendering in another (same user, another context). */
  renderP50Ms: number;
  renderP99Ms: number;
  /** The baseline: the same mutations' HTTP round trip (`POST /_svc/rpc`) seen by the first browser. */
  rpcP50Ms: number;
  rpcP99Ms: number;
  /** `@svc/react` + `@svc/client` as an app imports them (minified, React external), gzip. */
  librariesGzipBytes: number;
  /** The baseline: React + ReactDOM's `createRoot` alone, minified, gzip. */
  reactGzipBytes: number;
  /** The React template's built UI (every JS file `vite build` wrote), gzip. */
  templateUiGzipBytes: number;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Minified gzip size of an ES module bundle of `source` (React and ReactDOM external or not). */
async function gzipOfBundle(source: string, external: string[]): Promise<number> {
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    external,
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  return gzipSync(result.outputFiles[0]!.contents).byteLength;
}

async function signUp(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/sign-up`);
  await page.getByLabel("Name").fill("Bench");
  await page.getByLabel("Email").fill(`bench-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("a long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { name: "Your notes" }).waitFor();
}

/**
 * Builds the React template against this checkout, serves the build under
 * `wrangler dev`, and adds 200 notes one at a time in one browser context
 * while another context of the same user renders its live list: the time
 * from submit to the note appearing there, against the mutation's own HTTP
 * round trip. Both contexts run in one Chromium, so they share one clock.
 */
export async function measureFrontend(log: (line: string) => void): Promise<FrontendResult> {
  await rm(APP, { recursive: true, force: true });
  log("    building the React template (vite build)");
  await scaffold({ targetDir: APP, name: "react-bench", template: "react" });
  await codegen({ appDir: APP });
  await run(path.join(ROOT, "node_modules/.bin/vite"), ["build", "--logLevel", "warn"], {
    cwd: APP,
  });
  const assets = path.join(APP, "dist/client/assets");
  let templateUiGzipBytes = 0;
  for (const file of await readdir(assets)) {
    if (file.endsWith(".js")) {
      templateUiGzipBytes += gzipSync(await readFile(path.join(assets, file))).byteLength;
    }
  }
  const librariesGzipBytes = await gzipOfBundle(
    [
      'export { SvcProvider, useQuery, useMutation, useAction, usePaginatedQuery, useConnectionState, useSvcAuth } from "@svc/react";',
      'export { createClient } from "@svc/client";',
    ].join("\n"),
    ["react", "react-dom"],
  );
  const reactGzipBytes = await gzipOfBundle(
    'export { createElement } from "react"; export { createRoot } from "react-dom/client";',
    [],
  );

  const { startApp } = (await import(path.join(APP, "test/browser/server.ts"))) as {
    startApp(): Promise<{ url: string; dispose(): Promise<void> }>;
  };
  const app = await startApp();
  const browser = await chromium.launch({
    ...(existsSync("/usr/bin/chromium") ? { executablePath: "/usr/bin/chromium" } : {}),
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  try {
    const writerContext = await browser.newContext();
    const writer = await writerContext.newPage();
    await signUp(writer, app.url);
    const reader = await (
      await browser.newContext({ storageState: await writerContext.storageState() })
    ).newPage();
    await reader.goto(app.url);
    await reader.getByRole("heading", { name: "Your notes" }).waitFor();
    await reader.evaluate(() => {
      const seen = new Map<string, number>();
      (window as unknown as { seen: Map<string, number> }).seen = seen;
      new MutationObserver(() => {
        const now = performance.timeOrigin + performance.now();
        for (const item of document.querySelectorAll("li > span:first-child")) {
          const text = item.textContent ?? "";
          if (!seen.has(text)) seen.set(text, now);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // The baseline: each RPC's round trip as the page's own fetch sees it.
    await writer.evaluate(() => {
      const durations: number[] = [];
      (window as unknown as { rpc: number[] }).rpc = durations;
      const original = window.fetch.bind(window);
      window.fetch = async (input, init) => {
        const started = performance.now();
        const response = await original(input, init);
        if (String(input).includes("/_svc/rpc")) durations.push(performance.now() - started);
        return response;
      };
    });
    log(`    ${MUTATIONS} notes from one browser, rendered in the other`);
    const render: number[] = [];
    for (let index = 0; index < WARM_UP + MUTATIONS; index++) {
      const text = `note ${index}`;
      const sentAt = await writer.evaluate((value) => {
        const input = document.querySelector<HTMLInputElement>('input[name="text"]')!;
        input.value = value;
        const at = performance.timeOrigin + performance.now();
        input.form!.requestSubmit();
        return at;
      }, text);
      await reader.waitForFunction(
        (value) => (window as unknown as { seen: Map<string, number> }).seen.has(value),
        text,
      );
      const shownAt = await reader.evaluate(
        (value) => (window as unknown as { seen: Map<string, number> }).seen.get(value)!,
        text,
      );
      if (index >= WARM_UP) render.push(shownAt - sentAt);
    }
    const rpc = (await writer.evaluate(() => (window as unknown as { rpc: number[] }).rpc)).slice(
      -MUTATIONS,
    );
    return {
      mutations: MUTATIONS,
      renderP50Ms: median(render),
      renderP99Ms: percentile(render, 99),
      rpcP50Ms: median(rpc),
      rpcP99Ms: percentile(rpc, 99),
      librariesGzipBytes,
      reactGzipBytes,
      templateUiGzipBytes,
    };
  } finally {
    await browser.close();
    await app.dispose();
    await rm(APP, { recursive: true, force: true });
  }
}
