import { spawn } from "node:child_process";
import { watch } from "node:fs";
import path from "node:path";
import { codegen } from "./codegen.ts";

/** Options of {@link dev}. */
export interface DevOptions {
  appDir: string;
  /** Extra arguments for `wrangler dev`. */
  wranglerArgs: string[];
}

/**
 * Runs codegen, starts `wrangler dev`, and re-runs codegen whenever a file
 * under `svc/` changes (wrangler then reloads the worker). Resolves with
 * wrangler's exit code.
 */
export async function dev(options: DevOptions): Promise<number> {
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
  const wrangler = spawn("wrangler", ["dev", ...options.wranglerArgs], {
    cwd: options.appDir,
    stdio: "inherit",
  });
  return new Promise((resolve) => {
    wrangler.on("exit", (code) => {
      watcher.close();
      resolve(code ?? 0);
    });
  });
}
