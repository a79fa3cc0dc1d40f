import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildForDeploy } from "@svc/cli";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

/** The example app served by two isolates that share its D1 database and Durable Objects. */
export interface TwoIsolates {
  /** `http://127.0.0.1:<port>`: isolate A, over real HTTP. */
  url: string;
  /** Isolate B: same URL space (B answers as if it were `url`). */
  fetchB(pathname: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

const APP_DIR = path.resolve(import.meta.dirname, "../..");

/**
 * The example app bundled as `wrangler deploy` bundles it and loaded into
 * one workerd as two workers, A and B, each its own isolate with its own
 * module state (its own identity cache), bound to the same D1 database and
 * to A's Durable Object classes: the nearest local stand-in for two
 * Cloudflare locations serving one app. `vars` override the bindings.
 *
 * @example
 * ```ts
 * const app = await startTwoIsolates({ SVC_ADMIN_TOKEN: token });
 * await app.fetchB("/api/auth/sign-out", { method: "POST", headers });
 * ```
 */
export async function startTwoIsolates(vars: Record<string, string>): Promise<TwoIsolates> {
  const outdir = await mkdtemp(path.join(tmpdir(), "svc-two-isolates-"));
  const config = path.join(APP_DIR, "wrangler.jsonc");
  await buildForDeploy(config, outdir);
  const {
    modulesRules: _rules,
    cronTriggers: _crons,
    queueConsumers: _consumers,
    ...options
  } = unstable_getMiniflareWorkerOptions(config).workerOptions as Record<string, unknown>;
  const script = {
    modules: true,
    scriptPath: path.join(outdir, "worker.js"),
    modulesRoot: outdir,
    bindings: { ...(options.bindings as Record<string, unknown>), ...vars },
  };
  const objects = options.durableObjects as Record<string, { className: string }>;
  const miniflare = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: 0,
      workers: [
        { ...options, ...script, name: "a" },
        {
          ...options,
          ...script,
          name: "b",
          durableObjects: Object.fromEntries(
            Object.entries(objects).map(([binding, object]) => [
              binding,
              { ...object, scriptName: "a" },
            ]),
          ),
        },
      ],
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  const url = (await miniflare.ready).origin;
  const b = await miniflare.getWorker("b");
  return {
    url,
    async fetchB(pathname, init = {}) {
      // Miniflare's fetch has its own Request and Response types: cross by value.
      const answer = await b.fetch(`${url}${pathname}`, {
        method: init.method ?? "GET",
        headers: [...new Headers(init.headers)],
        ...(typeof init.body === "string" ? { body: init.body } : {}),
      });
      const headers = new Headers();
      for (const [name, value] of answer.headers) headers.append(name, value);
      return new Response(await answer.arrayBuffer(), { status: answer.status, headers });
    },
    async stop() {
      await miniflare.dispose();
      await rm(outdir, { recursive: true, force: true });
    },
  };
}
