import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { WRANGLER_QUIET_ENV, wranglerEntry } from "@svc/cli";

/** The built app (dist/) under `wrangler dev`, with state that survives a restart. */
export interface RunningApp {
  url: string;
  /** Stops the worker (state kept), as a crash or a deploy would. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same state. */
  start(): Promise<void>;
  /** Stops it and deletes its state. */
  dispose(): Promise<void>;
}

const APP_DIR = path.resolve(import.meta.dirname, "../..");
/** Test-only secrets: tests never read .dev.vars. */
const VARS = {
  AUTH_SECRET: "test-only-auth-secret-0123456789abcdefghij",
  SVC_ADMIN_TOKEN: "test-only-admin-token-0123456789abcdefghij",
  SVC_STORAGE_SECRET: "test-only-storage-secret-0123456789abcdefghij",
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

/** The worker config `vite build` wrote (dist/<worker>/wrangler.json). */
function builtConfig(): string {
  const dist = path.join(APP_DIR, "dist");
  const found = existsSync(dist)
    ? readdirSync(dist)
        .map((entry) => path.join(dist, entry, "wrangler.json"))
        .find((file) => existsSync(file))
    : undefined;
  if (found === undefined)
    throw new Error("No build found: run `vite build` first (npm run test:browser does).");
  return found;
}

/** Starts the built app on a free port with fresh state. */
export async function startApp(): Promise<RunningApp> {
  const port = await freePort();
  const persistTo = await mkdtemp(path.join(tmpdir(), "svc-browser-"));
  const wrangler = wranglerEntry(APP_DIR);
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let log = "";
  const start = async () => {
    const args = [
      wrangler,
      "dev",
      "--config",
      builtConfig(),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
    ];
    args.push("--persist-to", persistTo, "--show-interactive-dev-session=false");
    for (const [name, value] of Object.entries(VARS)) args.push("--var", `${name}:${value}`);
    child = spawn(process.execPath, args, {
      cwd: APP_DIR,
      env: { ...process.env, ...WRANGLER_QUIET_ENV, NO_COLOR: "1" },
    });
    child.stdout?.on("data", (chunk: Buffer) => (log += chunk));
    child.stderr?.on("data", (chunk: Buffer) => (log += chunk));
    for (let waited = 0; waited < 60_000; waited += 200) {
      if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${log}`);
      if (
        await fetch(url).then(
          () => true,
          () => false,
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`wrangler dev did not answer at ${url}:\n${log}`);
  };
  const stop = async () => {
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child?.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  await start();
  return {
    url,
    start,
    stop,
    dispose: async () => {
      await stop();
      await rm(persistTo, { recursive: true, force: true });
    },
  };
}
