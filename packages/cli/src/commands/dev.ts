import { spawn } from "node:child_process";
import { existsSync, watch } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { wranglerEntry } from "../wrangler.ts";
import { codegen } from "./codegen.ts";

/** Options of {@link dev}. */
export interface DevOptions {
  appDir: string;
  /** Extra arguments for `wrangler dev` (`--port`, `--ip`, ...). */
  wranglerArgs: string[];
  /** Banner lines once the app answers. @default console.log */
  log?: (line: string) => void;
}

function flag(args: readonly string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

/**
 * The local admin token from `.dev.vars`, so the banner can say what to paste
 * into the dashboard's sign-in (it is a development value; production tokens
 * live in `wrangler secret`).
 */
async function localAdminToken(appDir: string): Promise<string | undefined> {
  const file = path.join(appDir, ".dev.vars");
  if (!existsSync(file)) return undefined;
  const line = (await readFile(file, "utf8"))
    .split("\n")
    .find((entry) => entry.startsWith("SVC_ADMIN_TOKEN="));
  return line?.slice("SVC_ADMIN_TOKEN=".length).trim() || undefined;
}

async function announceWhenReady(
  origin: string,
  adminToken: string | undefined,
  log: (line: string) => void,
): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      await fetch(origin);
      log("");
      log(`  svc app      ${origin}/`);
      log(`  RPC          POST ${origin}/_svc/rpc`);
      log(`  REST         ${origin}/_svc/rest/<namespace>/<function>`);
      log(`  dashboard    ${origin}/_svc/dashboard/`);
      log(`  admin token  ${adminToken ?? "SVC_ADMIN_TOKEN is not set in .dev.vars"}`);
      log("");
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * Runs codegen, starts `wrangler dev`, prints where the app, its API and the
 * dashboard answer, and re-runs codegen whenever a file under `svc/` changes
 * (wrangler then reloads the worker). Resolves with wrangler's exit code.
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
  const wrangler = spawn(process.execPath, [entry, "dev", ...options.wranglerArgs], {
    cwd: options.appDir,
    stdio: "inherit",
  });
  const host = flag(options.wranglerArgs, "--ip") ?? "127.0.0.1";
  const origin = `http://${host}:${flag(options.wranglerArgs, "--port") ?? "8787"}`;
  void localAdminToken(options.appDir).then((token) => announceWhenReady(origin, token, log));
  return new Promise((resolve) => {
    wrangler.on("exit", (code) => {
      watcher.close();
      resolve(code ?? 0);
    });
  });
}
