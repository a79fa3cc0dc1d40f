import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { codegen, freePort } from "@svc/cli";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffold } from "../../src/scaffold.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../../..");
const BIN = path.join(ROOT, "node_modules/.bin");
// Inside the repository (and git-ignored): the app resolves @svc/* to this checkout's sources.
const APP = path.resolve(import.meta.dirname, `../../.tmp-react-${process.pid}`);

/** Runs a tool of the repository's install in the app's folder; answers its output. */
async function inApp(tool: string, args: string[]): Promise<string> {
  const { stdout, stderr } = await run(path.join(BIN, tool), args, {
    cwd: APP,
    env: {
      ...process.env,
      PATH: `${BIN}${path.delimiter}${process.env.PATH}`,
      NO_COLOR: "1",
      FORCE_COLOR: "0",
    },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(
      `${tool} ${args.join(" ")} failed:\n${error.stdout ?? ""}\n${error.stderr ?? error.message}`,
    );
  });
  return `${stdout}\n${stderr}`;
}

/**
 * Signs up and in again in Chromium against `vite dev` (React's StrictMode
 * mounts every effect twice there, so a live query's socket is opened and
 * dropped at once) and answers the console errors and warnings the pages logged: a socket
 * closed while connecting logs "WebSocket is closed before the connection is
 * established".
 */
async function devConsoleErrorsAtSignIn(origin: string): Promise<string[]> {
  const chromiumPath =
    process.env.CHROMIUM_PATH ??
    (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
  const browser = await chromium.launch({
    ...(chromiumPath ? { executablePath: chromiumPath } : {}),
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const errors: string[] = [];
  try {
    const page = await browser.newPage();
    page.on("console", (message) => {
      // Chromium logs a socket closed while connecting as a warning.
      if (message.type() === "error" || message.type() === "warning") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${origin}/sign-up`);
    await page.getByLabel("Name").fill("Dee");
    await page.getByLabel("Email").fill("dee@example.com");
    await page.getByLabel("Password").fill("a long password");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("No notes yet.").waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Email").fill("dee@example.com");
    await page.getByLabel("Password").fill("a long password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("No notes yet.").waitFor({ timeout: 60_000 });
    await page.waitForTimeout(500);
  } finally {
    await browser.close();
  }
  return errors;
}

beforeAll(async () => {
  await scaffold({ targetDir: APP, name: "react-app", template: "react" });
  await codegen({ appDir: APP });
  await inApp("vite", ["build"]);
});

afterAll(async () => {
  await rm(APP, { recursive: true, force: true });
});

// Its worker tests (test/notes.test.ts) are the API template's, run by the release test.
describe("the React template, from this repository's sources", () => {
  it("runs under vite dev: the page, better-auth and svc on one origin, the worker in workerd", async () => {
    const port = await freePort();
    const vite = spawn(path.join(BIN, "vite"), ["dev", "--port", String(port), "--strictPort"], {
      cwd: APP,
      env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH}`, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let log = "";
    vite.stdout?.on("data", (chunk: Buffer) => (log += chunk));
    vite.stderr?.on("data", (chunk: Buffer) => (log += chunk));
    const origin = `http://127.0.0.1:${port}`;
    try {
      let page = "";
      for (let waited = 0; waited < 120_000 && page === ""; waited += 500) {
        if (vite.exitCode !== null) throw new Error(`vite dev exited:\n${log}`);
        page = await fetch(`${origin}/sign-in`).then(
          (response) => response.text(),
          () => "",
        );
        if (page === "") await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(page).toContain('<div id="root">');
      const signUp = await fetch(`${origin}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({
          email: "dev@example.com",
          password: "a long password",
          name: "Dev",
        }),
      });
      expect(signUp.status, log).toBe(200);
      const list = await fetch(`${origin}/_svc/rest/notes/list`, {
        headers: { authorization: `Bearer ${signUp.headers.get("set-auth-token")}` },
      });
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual([]);
      expect(await devConsoleErrorsAtSignIn(origin)).toEqual([]);
    } finally {
      if (vite.pid) process.kill(-vite.pid, "SIGTERM");
    }
  });

  it("keeps local secrets (.dev.vars) out of the build output", async () => {
    const files = await readdir(path.join(APP, "dist"), { recursive: true });
    expect(files.some((file) => file.endsWith("wrangler.json"))).toBe(true);
    expect(files.filter((file) => path.basename(file).startsWith(".dev.vars"))).toEqual([]);
    const secret = (await readFile(path.join(APP, ".dev.vars"), "utf8")).match(/AUTH_SECRET=(.+)/);
    for (const file of files) {
      const full = path.join(APP, "dist", file);
      if ((await stat(full)).isFile()) {
        expect(await readFile(full, "utf8"), file).not.toContain(secret![1]);
      }
    }
  });

  it("passes its own browser test in Chromium (live tabs, optimistic updates, attachment upload, sign-out, restart, axe)", async () => {
    const output = await inApp("vitest", ["run", "--config", "vitest.browser.config.ts"]);
    expect(output).toMatch(/Tests\s+9 passed \(9\)/);
  });
});
