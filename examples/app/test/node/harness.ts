import path from "node:path";
import { type DevServer, startDevServer } from "@svc/cli";

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
