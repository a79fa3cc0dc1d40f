/**
 * The release test's part for an existing Worker project (issue 46): outside this repository, a
 * project that has only wrangler runs docs/auth.md's install command as written (no lockfile, the
 * registry as it is today), then bundles and serves a worker that signs a user up with
 * `@svc/auth` and `@svc/auth/plugins` — the path a user takes who adds svc's auth to a Worker.
 */
import { execFile, spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { installAsUser } from "./release-install.ts";
import type { ReleaseContext } from "./release-react-template.ts";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");

/** The `npm install @svc/auth …` line of docs/auth.md's "Set up", as a user would copy it. */
async function documentedInstall(): Promise<string[]> {
  const docs = await readFile(path.join(ROOT, "docs/auth.md"), "utf8");
  const line = /^npm install @svc\/auth .*$/m.exec(docs)?.[0];
  if (!line)
    throw new Error("release test failed: docs/auth.md has no `npm install @svc/auth` line");
  return line.split(/\s+/).slice(1);
}

const WORKER = `import { createAuth, ensureMigrated, handleAuthRequest, svcDatabaseAdapter } from "@svc/auth";
import { admin, bearer } from "@svc/auth/plugins";

interface Env { DB: D1Database; AUTH_SECRET: string }

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const auth = createAuth({
      secret: env.AUTH_SECRET,
      baseURL: new URL(request.url).origin,
      database: svcDatabaseAdapter(env.DB),
      emailAndPassword: { enabled: true },
      plugins: [admin(), bearer()],
    });
    await ensureMigrated(auth);
    return (await handleAuthRequest(auth, request)) ?? new Response("not found", { status: 404 });
  },
};
`;

/** Installs `@svc/auth` as docs/auth.md says into a wrangler-only project, bundles it and signs up. */
export async function releaseExistingWorker(context: ReleaseContext): Promise<void> {
  const { work, env, step } = context;
  const check: ReleaseContext["check"] = context.check;
  const app = path.join(work, "existing-worker");
  await mkdir(path.join(app, "src"), { recursive: true });
  const templates = JSON.parse(
    await readFile(path.join(ROOT, "packages/create-svc/package.json"), "utf8"),
  ) as { templateDependencies: Record<string, string> };
  await writeFile(
    path.join(app, "package.json"),
    `${JSON.stringify(
      {
        name: "existing-worker",
        private: true,
        type: "module",
        devDependencies: { wrangler: templates.templateDependencies.wrangler },
      },
      null,
      2,
    )}\n`,
  );
  await writeFile(
    path.join(app, "wrangler.jsonc"),
    JSON.stringify({
      name: "existing-worker",
      main: "./src/worker.ts",
      compatibility_date: "2026-10-01",
      compatibility_flags: ["nodejs_compat"],
      d1_databases: [{ binding: "DB", database_name: "auth", database_id: "local" }],
    }),
  );
  await writeFile(path.join(app, "src/worker.ts"), WORKER);
  await writeFile(
    path.join(app, ".dev.vars"),
    "AUTH_SECRET=release-test-secret-0123456789abcdef\n",
  );
  await installAsUser(app, env, "a wrangler-only Worker project");
  const args = await documentedInstall();
  step(`existing Worker project: npm ${args.join(" ")} (as docs/auth.md says)`);
  try {
    await exec("npm", [...args, "--no-audit", "--no-fund"], {
      cwd: app,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stderr = "" } = error as { stderr?: string };
    throw new Error(`release test failed: docs/auth.md's install failed:\n${stderr.slice(-4000)}`);
  }
  const wrangler = path.join(app, "node_modules/wrangler/bin/wrangler.js");
  await exec(process.execPath, [wrangler, "deploy", "--dry-run", "--outdir", "dist"], {
    cwd: app,
    env,
  });
  const port = await context.freePort();
  const dev = spawn(
    process.execPath,
    [wrangler, "dev", "--port", String(port), "--ip", "127.0.0.1"],
    {
      cwd: app,
      env: { ...env, NO_COLOR: "1" },
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
    },
  );
  context.children.push(dev);
  const origin = `http://127.0.0.1:${port}`;
  await context.waitFor(origin, 90_000, dev);
  const signUp = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email: "ann@example.com", password: "a long password", name: "Ann" }),
  });
  check(signUp.status === 200, `existing Worker project: sign-up answered ${signUp.status}`);
  if (dev.pid) process.kill(-dev.pid, "SIGTERM");
  step("existing Worker project: installed, bundled and signed a user up");
}
