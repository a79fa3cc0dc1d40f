import path from "node:path";
import { startDevServer } from "@svc/cli";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the test app (`test/app`) answers under `wrangler dev`. */
    appUrl: string;
  }
}

/** Starts the test app once for every hook test file (in Node, before happy-dom). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const app = await startDevServer({ appDir: path.resolve(import.meta.dirname, "app") });
  project.provide("appUrl", app.url);
  return () => app.stop();
}
