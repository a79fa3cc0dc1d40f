/**
 * The release test (issue 13): publishes every package to a local verdaccio
 * registry on loopback (third-party packages proxied from the registry npm is
 * configured with, read at run time), then, outside this repository, does
 * what a new user does: `npm create svc@latest app -- --yes`, `npm install`,
 * `tsc --noEmit`, `wrangler deploy --dry-run`, `npm run dev -- --port <free>`
 * with a sign-up, the template's REST procedure (RLS applied) and the admin
 * OpenAPI document, and the new app's own `npm test`; then the same for the
 * React template (`--template react`, see release-react-template.ts), and
 * `npm install @svc/auth better-auth` in an existing Worker project
 * (release-existing-worker.ts). Every install runs without a lockfile against
 * the registry as it is today: an upstream release that breaks resolution
 * fails here, naming the package (release-install.ts).
 *
 * Usage: `npm run test:release` (its own `.ci/run` step; minutes, progress on stderr).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type CpuProfile, cpuMs } from "../bench/lib/cpu-profile.ts";
import { releaseExistingWorker } from "./release-existing-worker.ts";
import { checkOneRuntime, installAsUser } from "./release-install.ts";
import { releaseReactTemplate } from "./release-react-template.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const NODE = process.execPath;
const PACKAGES = [
  "server",
  "ratelimit",
  "client",
  "testing",
  "react",
  "dashboard",
  "auth",
  "cli",
  "create-svc",
];
const exec = promisify(execFile);
const started = performance.now();

function step(message: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[release ${seconds}s] ${message}\n`);
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`release test failed: ${message}`);
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

async function waitFor(url: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the process exited early`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return exec("npm", args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), "svc-release-"));
  const children: ChildProcess[] = [];
  try {
    const upstream = (await exec("npm", ["config", "get", "registry"])).stdout.trim();
    const port = await freePort();
    const registry = `http://127.0.0.1:${port}/`;
    await writeFile(
      path.join(work, "verdaccio.yaml"),
      [
        `storage: ${path.join(work, "storage")}`,
        "auth: { htpasswd: { file: ./htpasswd, max_users: -1 } }",
        `uplinks: { upstream: { url: ${JSON.stringify(upstream)}, timeout: 120s } }`,
        "packages:",
        "  '@svc/*': { access: $all, publish: $anonymous }",
        "  'create-svc': { access: $all, publish: $anonymous }",
        "  '**': { access: $all, proxy: upstream }",
        "log: { type: stdout, format: pretty, level: warn }",
        "",
      ].join("\n"),
    );
    step(`starting verdaccio on ${registry} (uplink: the configured npm registry)`);
    const verdaccio = spawn(
      NODE,
      [
        path.join(ROOT, "node_modules/verdaccio/bin/verdaccio"),
        "--config",
        path.join(work, "verdaccio.yaml"),
        "--listen",
        `127.0.0.1:${port}`,
      ],
      { stdio: ["ignore", "inherit", "inherit"] },
    );
    children.push(verdaccio);
    await waitFor(`${registry}-/ping`, 30_000, verdaccio);

    // A throwaway npm config: this registry, a placeholder token (publish is anonymous).
    const npmrc = path.join(work, ".npmrc");
    await writeFile(npmrc, `registry=${registry}\n//127.0.0.1:${port}/:_authToken=release-test\n`);
    const env = {
      ...process.env,
      NPM_CONFIG_USERCONFIG: npmrc,
      npm_config_registry: registry,
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
    };

    step("building every package (npm run build)");
    await npm(["run", "build", "--silent"], ROOT, env);
    for (const name of PACKAGES) {
      step(`publishing ${name === "create-svc" ? name : `@svc/${name}`}`);
      await npm(["publish", "--registry", registry], path.join(ROOT, "packages", name), env);
    }

    step("npm create svc@latest app -- --yes (outside the repository)");
    await npm(["create", "svc@latest", "app", "--yes", "--", "--yes"], work, env);
    const app = path.join(work, "app");
    step("npm install in the new app (no lockfile; third-party packages through the uplink)");
    await installAsUser(app, env, "the API template");
    step(`one runtime in the new app: ${await checkOneRuntime(app)}`);

    step("tsc --noEmit with the template's strict settings");
    const tsc = await exec(NODE, [path.join(app, "node_modules/typescript/bin/tsc"), "--noEmit"], {
      cwd: app,
    }).catch((error: { stdout: string }) => error);
    check(tsc.stdout.trim() === "", `tsc reported errors:\n${tsc.stdout}`);

    step("wrangler deploy --dry-run");
    const wrangler = path.join(app, "node_modules/wrangler/bin/wrangler.js");
    const dry = await exec(NODE, [wrangler, "deploy", "--dry-run", "--outdir", "dist"], {
      cwd: app,
      env,
    });
    const size = /Total Upload: ([\d.]+ KiB) \/ gzip: ([\d.]+ KiB)/.exec(dry.stdout);
    check(size, `no bundle size in:\n${dry.stdout}`);
    step(`bundle: ${size[1]} (gzip ${size[2]})`);

    step("start-up CPU: wrangler check startup, 3 runs");
    const startupVars = (await readFile(path.join(app, ".dev.vars"), "utf8"))
      .split("\n")
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => `--var ${line.replace("=", ":")}`);
    const startup: number[] = [];
    for (let run = 0; run < 3; run++) {
      const profile = path.join(work, `startup-${run}.cpuprofile`);
      await exec(
        NODE,
        [wrangler, "check", "startup", "--outfile", profile, `--args=${startupVars.join(" ")}`],
        { cwd: app, env },
      );
      startup.push(cpuMs(JSON.parse(await readFile(profile, "utf8")) as CpuProfile));
    }
    const startupMedian = [...startup].sort((a, b) => a - b)[1] ?? 0;
    step(
      `start-up CPU median ${startupMedian.toFixed(1)} ms (runs ${startup.map((ms) => ms.toFixed(1)).join(" / ")} ms)`,
    );

    const devPort = await freePort();
    step(`npm run dev -- --port ${devPort}`);
    const dev = spawn("npm", ["run", "dev", "--", "--port", String(devPort), "--ip", "127.0.0.1"], {
      cwd: app,
      env: { ...env, NO_COLOR: "1" },
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
    });
    children.push(dev);
    const origin = `http://127.0.0.1:${devPort}`;
    await waitFor(origin, 90_000, dev);

    step("sign up two users over /api/auth and call the REST procedure");
    const signUp = async (email: string) => {
      const response = await fetch(`${origin}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ email, password: "a long password", name: email }),
      });
      check(response.status === 200, `sign-up answered ${response.status}`);
      return response.headers.get("set-auth-token") ?? "";
    };
    const ann = await signUp("ann@example.com");
    const bob = await signUp("bob@example.com");
    const add = await fetch(`${origin}/_svc/rest/notes/add`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ann}` },
      body: JSON.stringify({ text: "hello" }),
    });
    check(add.status === 200, `notes/add answered ${add.status}`);
    const list = async (token: string) =>
      (await fetch(`${origin}/_svc/rest/notes/list`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((response) => response.json())) as { text: string }[];
    check((await list(ann)).length === 1, "ann does not see her note");
    check((await list(bob)).length === 0, "RLS: bob sees ann's note");

    step("GET /_svc/admin/openapi with the generated admin token");
    const vars = await readFile(path.join(app, ".dev.vars"), "utf8");
    const token = /^SVC_ADMIN_TOKEN=(.+)$/m.exec(vars)?.[1] ?? "";
    const openapi = await fetch(`${origin}/_svc/admin/openapi`, {
      headers: { authorization: `Bearer ${token}` },
    });
    check(openapi.status === 200, `admin openapi answered ${openapi.status}`);
    const document = (await openapi.json()) as { paths: Record<string, unknown> };
    check("/_svc/rest/notes/add" in document.paths, "the OpenAPI document lacks notes/add");
    if (dev.pid) process.kill(-dev.pid, "SIGTERM");

    step("the new app's own npm test");
    await npm(["test"], app, env);
    await releaseReactTemplate({ work, env, children, step, check, freePort, waitFor });
    await releaseExistingWorker({ work, env, children, step, check, freePort, waitFor });
    step(
      `passed: bundle ${size[1]} (gzip ${size[2]}), start-up CPU median ${startupMedian.toFixed(1)} ms`,
    );
  } finally {
    for (const child of children) {
      if (child.exitCode === null && child.pid) {
        try {
          process.kill(child === children[0] ? child.pid : -child.pid, "SIGTERM");
        } catch {
          // already gone
        }
      }
    }
    await rm(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
