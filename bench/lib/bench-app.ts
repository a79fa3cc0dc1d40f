import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildForDeploy } from "@svc/cli";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

/** A running benchmark worker. */
export interface BenchApp {
  /** `http://127.0.0.1:<port>`, served by workerd itself. */
  url: string;
  stop(): Promise<void>;
}

const APP_DIR = path.resolve(import.meta.dirname, "../app");

/**
 * The benchmark worker (`bench/app`) bundled as `wrangler deploy` bundles it
 * and served by Miniflare straight from workerd, with its wrangler bindings
 * (D1, SQLite Durable Objects) in memory, fresh each start. Not `wrangler
 * dev`: its extra proxy workerd and per-request logging in Node cost more CPU
 * than the worker under test (measured: ~375 req/s for the REST read, the
 * worker's own workerd at 80 % of one core, the rest in wrangler's proxy and
 * Node), which buried the differences between targets in noise.
 */
export async function startBenchApp(): Promise<BenchApp> {
  const outdir = await mkdtemp(path.join(tmpdir(), "svc-bench-app-"));
  const config = path.join(APP_DIR, "wrangler.jsonc");
  await buildForDeploy(config, outdir);
  const { modulesRules: _rules, ...workerOptions } = unstable_getMiniflareWorkerOptions(config)
    .workerOptions as Record<string, unknown>;
  const miniflare = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: 0,
      // The workers' console lines (svc's call records among them) are dropped, not printed:
      // deployed, they go to Workers Logs, not through the load generator's process.
      handleStructuredLogs: () => {},
      workers: [
        {
          ...workerOptions,
          modules: true,
          scriptPath: path.join(outdir, "worker.js"),
          modulesRoot: outdir,
        },
      ],
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  const url = (await miniflare.ready).origin;
  return {
    url,
    async stop() {
      await miniflare.dispose();
      await rm(outdir, { recursive: true, force: true });
    },
  };
}

/** Inserts the row the REST/RPC reads fetch (`rows:seed` in shard `bench`) and answers its id. */
export async function seedRow(app: BenchApp): Promise<string> {
  const { body } = await postJson(`${app.url}/_svc/rpc?shardKey=bench`, {
    path: "rows:seed",
    args: {},
  });
  return (body as { value: string }).value;
}

/** POSTs JSON and answers the parsed body, failing on any non-2xx. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ body: unknown; response: Response }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return { body: await response.json(), response };
}
