import path from "node:path";
import { type DevServer, startDevServer } from "@svc/cli";
import { afterAll, beforeAll } from "vitest";

/** The example app running under `wrangler dev`. */
export type RunningApp = DevServer;

const APP_DIR = path.resolve(import.meta.dirname, "../..");

/**
 * Starts the example app exactly as `npm start` does, with fresh local state;
 * `vars` override `.dev.vars`.
 */
export function startApp(options: { vars?: Record<string, string> } = {}): Promise<RunningApp> {
  return startDevServer({ appDir: APP_DIR, ...(options.vars ? { vars: options.vars } : {}) });
}

/**
 * The example app for one test file: started in a `beforeAll` registered
 * here (so the file's own `beforeAll` hooks, registered after, can use it)
 * and stopped after the file. The returned object is filled in once the app
 * answers.
 *
 * @example
 * ```ts
 * const app = appForThisFile({ vars: { SVC_ADMIN_TOKEN: token } });
 * it("answers", async () => expect((await fetch(app.url)).status).toBe(200));
 * ```
 */
export function appForThisFile(options: { vars?: Record<string, string> } = {}): RunningApp {
  const app = {} as RunningApp;
  beforeAll(async () => {
    Object.assign(app, await startApp(options));
  }, 90_000);
  afterAll(async () => {
    await app.stop?.();
  });
  return app;
}
