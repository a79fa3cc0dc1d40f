import { afterAll, beforeAll } from "vitest";
import { type Chromium, launchChromium } from "./chromium.ts";
import { type RunningApp, startExampleApp } from "./example-app.ts";

/** What a browser test file drives: the example app and a browser context of its own. */
export interface Testbed {
  app: RunningApp;
  browser: Chromium;
}

/**
 * The example app (the shared one, or one of its own when `vars` are given:
 * see {@link startExampleApp}) and a fresh browser context for one test
 * file, opened in a `beforeAll` registered here and closed after the file.
 * Call it inside the file's `describe`, before the file's own hooks, which
 * can then use both: the returned objects are filled in by the time they run.
 *
 * @example
 * ```ts
 * describe.skipIf(!chromiumOrSkip())("the overview", () => {
 *   const { app, browser } = browserTestbed();
 *   it("opens", async () => {
 *     const page = await signedInAt(browser.context, app, "overview");
 *   });
 * });
 * ```
 */
export function browserTestbed(vars: Record<string, string> = {}): Testbed {
  const app = {} as RunningApp;
  const browser = {} as Chromium;
  beforeAll(async () => {
    Object.assign(app, await startExampleApp(vars));
    Object.assign(browser, await launchChromium());
  });
  afterAll(async () => {
    await browser.close?.();
    await app.stop?.();
  });
  return { app, browser };
}
