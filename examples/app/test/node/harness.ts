import path from "node:path";
import { type DevServer, startDevServer } from "@svc/cli";
import { afterAll, beforeAll } from "vitest";

/** The example app running under `wrangler dev`. */
export type RunningApp = DevServer;

const APP_DIR = path.resolve(import.meta.dirname, "../..");

/**
 * Starts the example app exactly as `npm start` does, with fresh local state;
 * `vars` override `.dev.vars`; `onOutput` sees wrangler's log as it is printed.
 */
export function startApp(
  options: { vars?: Record<string, string>; onOutput?: (chunk: string) => void } = {},
): Promise<RunningApp> {
  return startDevServer({
    appDir: APP_DIR,
    ...(options.vars ? { vars: options.vars } : {}),
    ...(options.onOutput ? { onOutput: options.onOutput } : {}),
  });
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

/**
 * Signs a user up through better-auth's own endpoint (password "a long
 * password") and answers their session token (`set-auth-token`, for
 * `Authorization: Bearer`). Anything but a 200 with a token fails the test.
 *
 * @example
 * ```ts
 * const client = createClient({ url: app.url, bearer: await signUpForToken(app, "ann@example.com") });
 * ```
 */
export async function signUpForToken(
  app: RunningApp,
  email: string,
  name = email.split("@")[0] ?? email,
): Promise<string> {
  const response = await fetch(`${app.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify({ email, password: "a long password", name }),
  });
  const token = response.headers.get("set-auth-token");
  if (response.status !== 200 || !token) {
    throw new Error(`sign-up of ${email} answered ${response.status} without a session token`);
  }
  return token;
}
