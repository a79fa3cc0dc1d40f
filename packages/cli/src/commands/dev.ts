import { spawn } from "node:child_process";
import { watch } from "node:fs";
import path from "node:path";
import { devVar, removeDevState, writeDevState } from "../dev-state.ts";
import { freePort, portIsFree } from "../ports.ts";
import { wranglerEntry } from "../wrangler.ts";
import { codegen } from "./codegen.ts";
import { bannerLines } from "./dev-banner.ts";

/** Options of {@link dev}. */
export interface DevOptions {
  appDir: string;
  /** Extra arguments for `wrangler dev` (`--port`, `--ip`, ...). */
  wranglerArgs: string[];
  /**
   * Call lines as production prints them (the record's JSON) instead of one
   * short line per call. @default false
   */
  json?: boolean;
  /** Banner lines once the app answers. @default console.log */
  log?: (line: string) => void;
}

/** Where `svc dev` listens when no `--port` is given and the port is free. */
const USUAL_PORT = 8787;

function flag(args: readonly string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

/**
 * The `wrangler dev` arguments `svc dev` adds to the user's: a port (8787,
 * or a free one when something else holds it, so the banner and the state
 * file know it) and the console format of call lines (unless given).
 */
async function devArgs(
  options: DevOptions,
  host: string,
): Promise<{ args: string[]; port: number }> {
  const args = [...options.wranglerArgs];
  let port = Number(flag(args, "--port") ?? Number.NaN);
  if (Number.isNaN(port)) {
    port = (await portIsFree(host, USUAL_PORT)) ? USUAL_PORT : await freePort();
    args.push("--port", String(port));
  }
  const formatGiven = args.some(
    (arg, index) => arg.startsWith("SVC_LOG_FORMAT:") && args[index - 1] === "--var",
  );
  if (!formatGiven) args.push("--var", `SVC_LOG_FORMAT:${options.json ? "json" : "text"}`);
  return { args, port };
}

async function announceWhenReady(
  origin: string,
  appDir: string,
  log: (line: string) => void,
): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      await fetch(origin);
      await writeDevState(appDir, { url: origin, pid: process.pid });
      for (const line of await bannerLines(origin, appDir, devVar(appDir, "SVC_ADMIN_TOKEN"))) {
        log(line);
      }
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * Runs codegen, starts `wrangler dev`, prints where the app, its API and the
 * dashboard answer, and re-runs codegen whenever a file under `svc/` changes
 * (wrangler then reloads the worker). While it runs, `.wrangler/svc-dev.json`
 * in the app's folder says where, for the admin commands. Resolves with
 * wrangler's exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await dev({ appDir: ".", wranglerArgs: ["--ip", "127.0.0.1"] });
 * ```
 */
export async function dev(options: DevOptions): Promise<number> {
  // The project's own wrangler, run with this Node: never whatever is first on PATH.
  // Looked up first, so a missing one fails before anything else starts.
  const entry = wranglerEntry(options.appDir);
  const log = options.log ?? ((line: string) => console.log(line));
  await codegen({ appDir: options.appDir });
  const svcDir = path.join(options.appDir, "svc");
  let pending: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const watcher = watch(svcDir, { recursive: true }, (_event, file) => {
    if (file === null || file.startsWith("_generated")) return;
    clearTimeout(pending);
    pending = setTimeout(() => {
      running = running.then(() =>
        codegen({ appDir: options.appDir }).catch((error: unknown) =>
          console.error(error instanceof Error ? error.message : error),
        ),
      );
    }, 100);
  });
  const host = flag(options.wranglerArgs, "--ip") ?? "127.0.0.1";
  const { args, port } = await devArgs(options, host);
  const wrangler = spawn(process.execPath, [entry, "dev", ...args], {
    cwd: options.appDir,
    stdio: "inherit",
  });
  // A terminal's Ctrl-C reaches wrangler itself (svc waits for it to exit, then cleans up);
  // a SIGTERM sent to svc alone is passed on.
  const forward = () => wrangler.kill("SIGTERM");
  const wait = () => {};
  process.on("SIGTERM", forward);
  process.on("SIGINT", wait);
  void announceWhenReady(`http://${host}:${port}`, options.appDir, log);
  return new Promise((resolve) => {
    wrangler.on("exit", (code) => {
      watcher.close();
      process.off("SIGTERM", forward);
      process.off("SIGINT", wait);
      void removeDevState(options.appDir, process.pid).finally(() => resolve(code ?? 0));
    });
  });
}
