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
 * Starts the example app under `wrangler dev` (fresh local D1 and Durable
 * Objects) with the test admin token, and checks that it serves both the
 * admin API and the dashboard. When it does not, the tests fail here with a
 * message saying what is missing, rather than skipping.
 */
export async function startExampleApp(vars: Record<string, string> = {}): Promise<RunningApp> {
  const app = await startApp({ vars: { SVC_ADMIN_TOKEN: ADMIN_TOKEN, ...vars } });
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
