import { execFile, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { codegen } from "@svc/cli";
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

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(),
      );
    });
  });
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
    } finally {
      if (vite.pid) process.kill(-vite.pid, "SIGTERM");
    }
  });

  it("passes its own browser test in Chromium (live tabs, optimistic updates, sign-out, restart, axe)", async () => {
    const output = await inApp("vitest", ["run", "--config", "vitest.browser.config.ts"]);
    expect(output).toMatch(/Tests\s+6 passed \(6\)/);
  });
});
