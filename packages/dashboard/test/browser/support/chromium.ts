import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, type BrowserServer, chromium } from "playwright-core";

/** Debian's Chromium (`apt-get install -y chromium`); `CHROMIUM_PATH` overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Flags for a quiet, self-contained headless Chromium in a container. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** True when the browser tests can run here. */
export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/** A running Chromium with a fresh profile, and a way to stop it and remove the profile. */
export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Where the global setup (`global-setup.ts`) tells test files about the one
 * Chromium it started for all of them: its WebSocket endpoint.
 */
export const SHARED_CHROMIUM_ENV = "SVC_TEST_CHROMIUM_ENDPOINT";

/** What every test browser context gets: a laptop screen, light mode, en-GB, UTC. */
function contextOptions(viewport = { width: 1280, height: 800 }) {
  return {
    viewport,
    colorScheme: "light" as const,
    locale: "en-GB",
    timezoneId: "UTC",
  };
}

/**
 * A fresh browser context (no cookies, no storage) for a test file. Under
 * the test runner it is a context in the one Chromium the global setup
 * started (launching Chromium costs about 1.5 s a file); elsewhere (the
 * screenshot script) it launches Debian's Chromium through playwright-core
 * (Playwright's own browser download does not work here) with a fresh
 * `--user-data-dir`. `viewport` defaults to a laptop screen.
 *
 * @example
 * ```ts
 * const browser = await launchChromium({ viewport: { width: 390, height: 844 } });
 * const page = await browser.context.newPage();
 * await browser.close();
 * ```
 */
export async function launchChromium(
  options: { viewport?: { width: number; height: number } } = {},
): Promise<Chromium> {
  const endpoint = process.env[SHARED_CHROMIUM_ENV];
  if (endpoint !== undefined) {
    const browser = await chromium.connect(endpoint);
    const context = await browser.newContext(contextOptions(options.viewport));
    return {
      context,
      async close() {
        await context.close();
        await browser.close();
      },
    };
  }
  const profile = await mkdtemp(path.join(tmpdir(), "svc-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    ...contextOptions(options.viewport),
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Starts Debian's Chromium as a server that test files connect to (see
 * {@link launchChromium}); closing it ends every context.
 *
 * @example
 * ```ts
 * const server = await startChromiumServer();
 * process.env[SHARED_CHROMIUM_ENV] = server.wsEndpoint();
 * ```
 */
export function startChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/**
 * Whether the browser tests can run, said out loud: without Chromium they
 * skip with a message naming the fix; in CI (`CI` set) a missing Chromium is
 * a failure, since `.ci/run` installs it and a skip would hide a broken step.
 */
export function chromiumOrSkip(): boolean {
  if (chromiumAvailable()) return true;
  const missing = `Chromium not found at ${CHROMIUM_PATH}`;
  const fix = "Install it with `apt-get install -y chromium` (or set CHROMIUM_PATH).";
  if (process.env.CI) {
    throw new Error(`${missing}: the dashboard's browser tests cannot run in CI. ${fix}`);
  }
  console.warn(`\n⚠ ${missing}: the dashboard's browser tests are SKIPPED. ${fix}\n`);
  return false;
}
