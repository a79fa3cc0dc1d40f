import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { freePort, WRANGLER_QUIET_ENV } from "@svc/cli";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffold } from "../src/scaffold.ts";

/**
 * A new user's first hour with the API template (issue 46), over `svc dev`
 * as `npm run dev` runs it: the banner names only URLs that answer, each call
 * prints one short line, and the admin commands find the dev server (on a
 * port other than 8787) and a shard right after its first write.
 */

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../..");
const SVC = path.join(ROOT, "packages/cli/src/bin.ts");
// Inside the repository (and git-ignored): the app resolves @svc/* to this checkout's sources.
const APP = path.resolve(import.meta.dirname, `../.tmp-first-hour-${process.pid}`);
/** The admin commands' environment: no SVC_URL, no token, as in a new user's shell. */
const { SVC_URL: _url, SVC_ADMIN_TOKEN: _token, ...USER_ENV } = process.env;

let dev: ChildProcess;
let output = "";
let origin: string;

async function until<T>(probe: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (dev.exitCode !== null) throw new Error(`svc dev exited with ${dev.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `svc <args>` in the app's folder, as the user types it; answers stdout. */
async function svc(args: string[]): Promise<string> {
  const node = path.join(ROOT, "node_modules/.bin/node");
  const { stdout } = await run(node, ["--disable-warning=ExperimentalWarning", SVC, ...args], {
    cwd: APP,
    env: USER_ENV,
  });
  return stdout;
}

/** The banner's lines: label and URL text, from the block `svc dev` prints once ready. */
function banner(): Map<string, string> | undefined {
  // Not anchored on the blank line before the block: wrangler's own request lines (of the
  // banner's probes) arrive on the other stream and may land between them.
  const match = /(?:^|\n)((?: {2}\S.*\n)+?) {2}admin token +\S+\n/.exec(output);
  if (match === null) return undefined;
  const lines = match[1]!.trimEnd().split("\n");
  return new Map(lines.map((line) => [line.slice(2, 15).trim(), line.slice(15).trim()]));
}

beforeAll(async () => {
  await scaffold({ targetDir: APP, name: "first-hour", template: "api" });
  // Any port but 8787: the admin commands must find it without SVC_URL.
  const port = await freePort();
  dev = spawn(
    path.join(ROOT, "node_modules/.bin/node"),
    // Its own inspector port: wrangler's default (9229) fails when another dev server holds it.
    [
      "--disable-warning=ExperimentalWarning",
      SVC,
      "dev",
      "--",
      ...["--port", String(port), "--inspector-port", String(await freePort())],
    ],
    {
      cwd: APP,
      env: { ...process.env, ...WRANGLER_QUIET_ENV, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  dev.stdout?.on("data", (chunk: Buffer) => (output += chunk));
  dev.stderr?.on("data", (chunk: Buffer) => (output += chunk));
  await until(banner, "the svc dev banner", 150_000);
  origin = JSON.parse(await readFile(path.join(APP, ".wrangler/svc-dev.json"), "utf8")).url;
  expect(origin).toBe(`http://127.0.0.1:${port}`);
}, 180_000);

afterAll(async () => {
  if (dev !== undefined && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once("exit", resolve));
    dev.kill("SIGTERM");
    await exited;
  }
  await rm(APP, { recursive: true, force: true });
});

describe("svc dev in a new API app", () => {
  it("names only URLs that answer: no page at / in the API template", async () => {
    const lines = banner()!;
    expect([...lines.keys()]).toEqual(["RPC", "REST", "dashboard"]);
    expect((await fetch(`${origin}/`)).status).toBe(404);
    for (const [label, text] of lines) {
      const [method, url] = text.includes(" ") ? text.split(" ") : ["GET", text];
      const response = await fetch(url!, {
        method,
        ...(method === "POST"
          ? { headers: { "content-type": "application/json" }, body: "{}" }
          : {}),
      });
      await response.body?.cancel();
      expect(response.status, label).not.toBe(404);
    }
    expect(lines.get("dashboard")).toBe(`${origin}/_svc/dashboard/`);
  });

  it("prints one short line per call, with the error's code and message and no stack", async () => {
    const response = await fetch(`${origin}/_svc/rest/notes/add`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "anonymous" }),
    });
    expect(response.status).toBe(401);
    const line = await until(
      () =>
        /^.*svc rest POST notes:add 401 UNAUTHENTICATED \d+ms: Sign in to add notes\.$/m.exec(
          output,
        )?.[0],
      "the call's line",
      20_000,
    );
    expect(line.length).toBeLessThan(200);
    expect(output).not.toContain('"svc":"call"');
    expect(output).not.toMatch(/^\s+at .*notes\.ts:\d+/m);
  });

  it("lets the admin commands find it and list a shard right after its first write", async () => {
    expect(existsSync(path.join(APP, ".wrangler/svc-dev.json"))).toBe(true);
    const signUp = await fetch(`${origin}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ email: "first@example.com", password: "a long password", name: "F" }),
    });
    const token = signUp.headers.get("set-auth-token");
    expect(signUp.status).toBe(200);
    const added = await fetch(`${origin}/_svc/rest/notes/add`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ text: "my first note" }),
    });
    expect(added.status).toBe(200);
    // No SVC_URL, no SVC_ADMIN_TOKEN: the dev server's state file and the app's .dev.vars.
    const listed = (await svc(["shards", "list", "--json"])).trim().split("\n");
    expect(listed.map((line) => JSON.parse(line))).toMatchObject([
      { key: "default", documents: 1 },
    ]);
    const backup = await svc(["backup", "default", "-o", "-"]);
    expect(backup).toContain("my first note");
  });
});
