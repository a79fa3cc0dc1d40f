import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./ports.ts";
import { WRANGLER_QUIET_ENV, wranglerEntry } from "./wrangler.ts";

/** A worker running under `wrangler dev` on its own port with its own local state. */
export interface DevServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Everything wrangler printed so far (for failure messages). */
  output(): string;
  /** Where the local D1 databases and Durable Objects persist (removed by `stop` unless given as `persistTo`). */
  stateDir: string;
  /** Stops wrangler and deletes the local state (but a `persistTo` folder, which belongs to the caller). */
  stop(): Promise<void>;
}

/** Options of {@link startDevServer}. */
export interface DevServerOptions {
  /** The app's folder (holds `wrangler.jsonc`). */
  appDir: string;
  /** Variables that override `.dev.vars` / wrangler `vars` (`--var NAME:VALUE`). */
  vars?: Record<string, string>;
  /**
   * Port to listen on; when another process holds it, `startDevServer`
   * fails (it never takes that process for the app). @default a free port,
   * chosen again (up to three times) if another process takes it first
   */
  port?: number;
  /** How long to wait for the first answer. @default 60000 */
  readyTimeoutMs?: number;
  /**
   * Keep the local state in this folder and leave it there on `stop`, so a
   * second server started with it sees the first one's data (a restart, a
   * deploy of new code). @default a fresh temporary folder, deleted on `stop`
   */
  persistTo?: string;
  /**
   * Called with each piece wrangler prints, as it prints it: for a process
   * that must see the log while the app runs (e.g. a test setup writing it
   * to a file that test workers read). `output()` still holds all of it.
   */
  onOutput?: (chunk: string) => void;
}

/** wrangler could not bind its port or its inspector's: another process holds it. */
class PortTakenError extends Error {}

/**
 * Waits for wrangler's own "Ready on <url>" line, then for an answer at
 * `url`. An answer alone proves nothing: when wrangler could not bind the
 * port, whatever else listens there answers (seen in CI: another test's
 * server, so a test suite ran against the wrong app until that one stopped).
 */
async function waitForReady(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (/Address already in use/.test(output())) {
      throw new PortTakenError(`wrangler dev could not listen on ${url}:\n${output()}`);
    }
    if (child.exitCode !== null)
      throw new Error(`wrangler dev exited with ${child.exitCode}:\n${output()}`);
    if (output().includes(`Ready on ${url}`)) {
      try {
        await fetch(url);
        return;
      } catch {
        // Listening, not answering yet.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`wrangler dev did not answer at ${url} within ${timeoutMs} ms:\n${output()}`);
}

/**
 * Starts an app exactly as `wrangler dev` runs it (real workerd, local D1 and
 * Durable Objects) with fresh state in a temporary folder — for end-to-end
 * tests and benchmarks over real HTTP.
 *
 * @example
 * ```ts
 * const app = await startDevServer({ appDir: "examples/app" });
 * await fetch(`${app.url}/_svc/rest/hello/ping`);
 * await app.stop();
 * ```
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  // A free port is free when asked, not when wrangler binds it: another process may take it
  // meanwhile (two test projects start servers at once). A port svc chose is chosen again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(options, options.port ?? (await freePort()));
    } catch (error) {
      if (!(error instanceof PortTakenError) || options.port !== undefined || attempt === 3) {
        throw error;
      }
    }
  }
}

async function launch(options: DevServerOptions, port: number): Promise<DevServer> {
  const persistTo = options.persistTo ?? (await mkdtemp(path.join(tmpdir(), "svc-dev-")));
  // Its own inspector port too: wrangler's default (9229, checked free, then bound) fails one of
  // two dev servers started at once with "Address already in use (socket direct:1:default)".
  const inspectorPort = await freePort();
  const args = ["dev", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", persistTo];
  args.push("--inspector-port", String(inspectorPort));
  args.push("--show-interactive-dev-session=false", "--test-scheduled");
  for (const [name, value] of Object.entries(options.vars ?? {}))
    args.push("--var", `${name}:${value}`);
  const child = spawn(process.execPath, [wranglerEntry(options.appDir), ...args], {
    cwd: options.appDir,
    env: {
      ...process.env,
      ...WRANGLER_QUIET_ENV,
      NO_COLOR: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const append = (chunk: Buffer) => {
    const text = chunk.toString();
    log += text;
    options.onOutput?.(text);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const url = `http://127.0.0.1:${port}`;
  const output = () => log;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    if (options.persistTo === undefined) await rm(persistTo, { recursive: true, force: true });
  };
  try {
    await waitForReady(url, child, output, options.readyTimeoutMs ?? 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, output, stop, stateDir: persistTo };
}
