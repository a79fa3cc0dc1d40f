import { readFileSync } from "node:fs";
import { type RunningApp, startApp } from "../../../../../examples/app/test/node/harness.ts";

/** The admin token the browser tests give the example app (`--var SVC_ADMIN_TOKEN:…`). */
export const ADMIN_TOKEN = "dashboard-browser-tests-admin-token-0123456789";

/** The operator name the audit trail records for a single unnamed admin token. */
export const OPERATOR = "admin";

/**
 * The wrangler vars that make the example app run without the organization
 * plugin (the example app maps `ORGANIZATIONS=off` to
 * `createAuthAdmin(auth, { features: { organization: false } })`).
 */
export const ORGANIZATIONS_OFF = { ORGANIZATIONS: "off" };

/** `fetch` init with the admin token, for asserting what the admin API reports. */
export function adminInit(init: RequestInit = {}): RequestInit {
  return { ...init, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...init.headers } };
}

/** GETs an admin route (relative to `/_svc/admin/auth/`) as JSON, failing loudly on any non-2xx. */
export async function adminGet<T>(app: RunningApp, path: string): Promise<T> {
  const response = await fetch(`${app.url}/_svc/admin/auth/${path}`, adminInit());
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/**
 * Where the global setup (`global-setup.ts`) tells test files about the
 * example app it started for all of them: JSON of {@link SharedAppAddress}.
 */
export const SHARED_APP_ENV = "SVC_TEST_SHARED_EXAMPLE_APP";

/** What a test file needs to reach the shared example app. */
export interface SharedAppAddress {
  url: string;
  stateDir: string;
  /** The file the global setup appends wrangler's log to. */
  logFile: string;
}

/**
 * The example app for a browser test file. With the default vars it is the
 * one app the global setup started for every file (starting wrangler and
 * migrating two databases costs about 6 s a file); its `stop` does nothing,
 * since the global teardown stops it. With other `vars` (e.g.
 * {@link ORGANIZATIONS_OFF}) the file gets an app of its own. Files share
 * the database, so a test only counts what it created itself.
 *
 * @example
 * ```ts
 * beforeAll(async () => { app = await startExampleApp(); });
 * afterAll(() => app.stop());
 * ```
 */
export async function startExampleApp(vars: Record<string, string> = {}): Promise<RunningApp> {
  const shared = process.env[SHARED_APP_ENV];
  if (shared !== undefined && Object.keys(vars).length === 0) {
    const address = JSON.parse(shared) as SharedAppAddress;
    return {
      url: address.url,
      stateDir: address.stateDir,
      output: () => readFileSync(address.logFile, "utf8"),
      stop: async () => {},
    };
  }
  return launchExampleApp(vars);
}

/**
 * Starts an example app of its own under `wrangler dev` (fresh local D1 and
 * Durable Objects) with the test admin token, and checks that it serves both
 * the admin API and the dashboard. When it does not, the tests fail here
 * with a message saying what is missing, rather than skipping.
 *
 * @example
 * ```ts
 * const app = await launchExampleApp(ORGANIZATIONS_OFF);
 * ```
 */
export async function launchExampleApp(
  vars: Record<string, string> = {},
  onOutput?: (chunk: string) => void,
): Promise<RunningApp> {
  const app = await startApp({
    // Shards report to the registry (the Data screen's shard list) half a second after a write;
    // a broad users search counts 10 matches exactly, so "+" totals show with a few users.
    vars: {
      SVC_ADMIN_TOKEN: ADMIN_TOKEN,
      REGISTRY_INTERVAL_MS: "500",
      ADMIN_TOTALS_EXACT_UP_TO: "10",
      ...vars,
    },
    ...(onOutput ? { onOutput } : {}),
  });
  try {
    const capabilities = await fetch(`${app.url}/_svc/admin/auth/capabilities`, adminInit());
    if (capabilities.status !== 200) {
      throw new Error(
        `The example app does not answer GET /_svc/admin/auth/capabilities (HTTP ${capabilities.status}: ` +
          `${(await capabilities.text()).slice(0, 200)}). The dashboard's browser tests need the admin API: ` +
          "examples/app must pass createAuthAdmin(auth) from @svc/auth as authAdmin to createWorker " +
          "(see packages/dashboard/README.md, 'Browser tests').",
      );
    }
    const page = await fetch(`${app.url}/_svc/dashboard/`);
    if (page.status !== 200 || !(page.headers.get("content-type") ?? "").startsWith("text/html")) {
      throw new Error(
        `The example app does not serve the dashboard at /_svc/dashboard/ (HTTP ${page.status}): ` +
          "pass `dashboard: dashboardAssets` (from @svc/dashboard) to createAuthAdmin.",
      );
    }
    return app;
  } catch (error) {
    await app.stop();
    throw error;
  }
}

export type { RunningApp };
