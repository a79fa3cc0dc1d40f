/**
 * The release test's part for the React template (issue 30): outside this
 * repository, from the local registry, `npm create svc@latest react-app --
 * --template react`, `npm install`, `tsc --noEmit`, `npm run build` (Vite:
 * the UI and the worker), `npm run dev` (Vite with Cloudflare's plugin: the
 * page, better-auth and a REST call on one origin), and the app's own `npm
 * test` (worker tests, then the browser test in Chromium).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { checkOneRuntime, installAsUser } from "./release-install.ts";

const exec = promisify(execFile);

/** What the release test hands over: its folder, npm environment, helpers and child list. */
export interface ReleaseContext {
  work: string;
  env: NodeJS.ProcessEnv;
  children: ChildProcess[];
  step(message: string): void;
  check(condition: unknown, message: string): asserts condition;
  freePort(): Promise<number>;
  waitFor(url: string, timeoutMs: number, child?: ChildProcess): Promise<void>;
}

const npm = (args: string[], cwd: string, env: NodeJS.ProcessEnv) =>
  exec("npm", args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });

/** Scaffolds, installs, type-checks, builds, runs and tests the React template. */
export async function releaseReactTemplate(context: ReleaseContext): Promise<void> {
  const { work, env, step } = context;
  const check: ReleaseContext["check"] = context.check;
  step("npm create svc@latest react-app -- --template react (outside the repository)");
  await npm(["create", "svc@latest", "react-app", "--yes", "--", "--template", "react"], work, env);
  const app = path.join(work, "react-app");
  step("npm install in the React app (no lockfile)");
  await installAsUser(app, env, "the React template");
  step(`one runtime in the React app: ${await checkOneRuntime(app)}`);

  step("tsc --noEmit (UI, worker and tests)");
  const tsc = await exec(
    process.execPath,
    [path.join(app, "node_modules/typescript/bin/tsc"), "--noEmit"],
    {
      cwd: app,
    },
  ).catch((error: { stdout: string }) => error);
  check(tsc.stdout.trim() === "", `tsc reported errors:\n${tsc.stdout}`);

  step("npm run build (vite build: the UI's assets and the worker)");
  const build = await npm(["run", "build"], app, env);
  const ui = /dist\/client\/assets\/index-[\w-]+\.js\s+([\d.,]+ kB) │ gzip:\s+([\d.,]+ kB)/.exec(
    build.stdout,
  );
  check(ui, `no UI bundle in the build output:\n${build.stdout}`);
  step(`UI bundle: ${ui[1]} (gzip ${ui[2]})`);

  const port = await context.freePort();
  step(`npm run dev -- --port ${port} (Vite + the worker in workerd, one process)`);
  const dev = spawn("npm", ["run", "dev", "--", "--port", String(port), "--strictPort"], {
    cwd: app,
    env: { ...env, NO_COLOR: "1" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  context.children.push(dev);
  const origin = `http://127.0.0.1:${port}`;
  await context.waitFor(origin, 120_000, dev);
  const page = await fetch(`${origin}/sign-in`).then((response) => response.text());
  check(page.includes('<div id="root">'), `the UI's page is not served at /sign-in:\n${page}`);
  const signUp = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email: "ann@example.com", password: "a long password", name: "Ann" }),
  });
  check(signUp.status === 200, `sign-up through Vite answered ${signUp.status}`);
  const token = signUp.headers.get("set-auth-token") ?? "";
  const list = await fetch(`${origin}/_svc/rest/notes/list`, {
    headers: { authorization: `Bearer ${token}` },
  });
  check(list.status === 200, `notes/list through Vite answered ${list.status}`);
  if (dev.pid) process.kill(-dev.pid, "SIGTERM");

  step("the React app's own npm test (worker tests, then Chromium)");
  await npm(["test"], app, env);
  step(`React template passed: UI bundle ${ui[1]} (gzip ${ui[2]})`);
}
