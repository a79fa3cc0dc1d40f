import { appendFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromiumAvailable, SHARED_CHROMIUM_ENV, startChromiumServer } from "./chromium.ts";
import { launchExampleApp, SHARED_APP_ENV, type SharedAppAddress } from "./example-app.ts";

/**
 * The dashboard project's global setup: one example app (under `wrangler
 * dev`) and one Chromium for every browser test file, instead of one each.
 * Test files find them through environment variables the test workers
 * inherit ({@link SHARED_APP_ENV}, {@link SHARED_CHROMIUM_ENV}); wrangler's
 * log goes to a file so `app.output()` still works in a file. Without
 * Chromium nothing starts: the browser files then skip or fail on their own
 * (see `chromiumOrSkip`). The returned teardown stops both.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * test: { globalSetup: ["test/browser/support/global-setup.ts"] }
 * ```
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (!chromiumAvailable()) return async () => {};
  const logDir = await mkdtemp(path.join(tmpdir(), "svc-dashboard-tests-"));
  const logFile = path.join(logDir, "wrangler.log");
  appendFileSync(logFile, "");
  const [app, browser] = await Promise.all([
    launchExampleApp({}, (chunk) => appendFileSync(logFile, chunk)),
    startChromiumServer(),
  ]);
  const address: SharedAppAddress = { url: app.url, stateDir: app.stateDir, logFile };
  process.env[SHARED_APP_ENV] = JSON.stringify(address);
  process.env[SHARED_CHROMIUM_ENV] = browser.wsEndpoint();
  return async () => {
    await Promise.all([browser.close(), app.stop()]);
    await rm(logDir, { recursive: true, force: true });
  };
}
