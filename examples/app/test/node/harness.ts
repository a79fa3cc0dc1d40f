import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** A running example app under `wrangler dev`, on its own port and its own local state. */
export interface RunningApp {
  url: string;
  /** Everything wrangler printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

const APP_DIR = path.resolve(import.meta.dirname, "../..");

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

async function waitForReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`wrangler dev exited with ${child.exitCode}:\n${output()}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`wrangler dev did not answer at ${url} within 60 s:\n${output()}`);
}

/**
 * Starts the example app exactly as `npm start` does (wrangler dev, real
 * workerd, local D1 and Durable Objects), with fresh state in a temp folder.
 * `vars` override `.dev.vars` / wrangler vars.
 */
export async function startApp(
  options: { vars?: Record<string, string> } = {},
): Promise<RunningApp> {
  const port = await freePort();
  const persistTo = await mkdtemp(path.join(tmpdir(), "svc-app-"));
  const args = [
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--persist-to",
    persistTo,
    "--show-interactive-dev-session=false",
  ];
  for (const [name, value] of Object.entries(options.vars ?? {}))
    args.push("--var", `${name}:${value}`);
  const child = spawn(path.join(APP_DIR, "../../node_modules/.bin/wrangler"), args, {
    cwd: APP_DIR,
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      NO_COLOR: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const output = () => log;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await rm(persistTo, { recursive: true, force: true });
  };
  try {
    await waitForReady(url, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, output, stop };
}
