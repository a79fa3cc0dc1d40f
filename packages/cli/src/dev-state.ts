import { existsSync, readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * The file `svc dev` keeps in the app's folder while it runs, saying where its
 * server answers: `.wrangler/` is already git-ignored, and is the local state
 * of that app's `wrangler dev`.
 */
export const DEV_STATE_FILE = path.join(".wrangler", "svc-dev.json");

/** What {@link DEV_STATE_FILE} holds. */
export interface DevState {
  /** The dev server's origin, e.g. `http://127.0.0.1:8788`. */
  url: string;
  /** The `svc dev` process: the file is ignored once it has gone. */
  pid: number;
}

/**
 * Notes where this `svc dev` serves the app, so admin commands run in the
 * app's folder find it without `--url` or `SVC_URL`.
 *
 * @example await writeDevState("my-app", { url: "http://127.0.0.1:8788", pid: process.pid });
 */
export async function writeDevState(appDir: string, state: DevState): Promise<void> {
  const file = path.join(appDir, DEV_STATE_FILE);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(state)}\n`);
}

/**
 * Forgets the dev server of `appDir` (its `svc dev` is stopping), unless a
 * later `svc dev` wrote the file since.
 *
 * @example await removeDevState("my-app", process.pid);
 */
export async function removeDevState(appDir: string, pid: number): Promise<void> {
  if (readDevState(appDir)?.pid === pid)
    await rm(path.join(appDir, DEV_STATE_FILE), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, it is only someone else's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readDevState(appDir: string): DevState | undefined {
  const file = path.join(appDir, DEV_STATE_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const state = JSON.parse(readFileSync(file, "utf8")) as Partial<DevState>;
    if (typeof state.url !== "string" || !Number.isInteger(state.pid)) return undefined;
    return { url: state.url, pid: state.pid as number };
  } catch {
    return undefined;
  }
}

/**
 * The URL of the `svc dev` running for the app in `appDir`, or `undefined`
 * when none is (no file, or its process has gone: a killed `svc dev` leaves
 * the file behind).
 *
 * @example runningDevUrl(".") // "http://127.0.0.1:8788"
 */
export function runningDevUrl(appDir: string): string | undefined {
  const state = readDevState(appDir);
  return state !== undefined && alive(state.pid) ? state.url : undefined;
}

/**
 * One variable of the app's `.dev.vars` (local development values), or
 * `undefined` when the file or the variable is missing.
 *
 * @example devVar(".", "SVC_ADMIN_TOKEN")
 */
export function devVar(appDir: string, name: string): string | undefined {
  const file = path.join(appDir, ".dev.vars");
  if (!existsSync(file)) return undefined;
  const line = readFileSync(file, "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${name}=`));
  return line?.slice(name.length + 1).trim() || undefined;
}
