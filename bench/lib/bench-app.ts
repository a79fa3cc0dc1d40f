import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildForDeploy, freePort } from "@svc/cli";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { pinWorker } from "./cpu-pinning.ts";
import { processCpuMs, workerdPids } from "./workerd-cpu.ts";

/** A running benchmark worker. */
export interface BenchApp {
  /**
   * `http://127.0.0.1:<port>`: the worker's own socket in workerd, as a
   * deployed worker is reached (see {@link serve}).
   */
  url: string;
  /**
   * CPU time (ms) used so far by the workerd that serves the worker and its
   * shards (not the log store's): a `cpuProbe` for {@link compare}.
   */
  workerCpuMs(): Promise<number>;
  /**
   * The worker's workerd inspector (Chrome DevTools protocol), when started
   * with `{ inspect: true }`: `attachProfiler` profiles it.
   */
  inspectorUrl?: string;
  /** The bundled worker served (valid until `stop`), to name a profile's bundle lines. */
  bundleFile: string;
  /** The process ids of the workerd that serves the worker and its shards (its memory, say). */
  workerPids: readonly number[];
  /**
   * A full garbage collection of the worker's isolate (`POST /bench/gc`): a
   * `settle` for {@link compare}, so each measured window pays for its own
   * garbage.
   */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

const APP_DIR = path.resolve(import.meta.dirname, "../app");
/** The worker name of the log store's own workerd (see {@link startBenchApp}). */
const LOG_STORE_WORKER = "svc-bench-log-store";

type WorkerOptions = Record<string, unknown> & { durableObjects?: Record<string, unknown> };

/**
 * One workerd serving `worker`. With `directSocket`, the worker also listens
 * on a socket of its own ({@link directUrl}), which workerd hands straight
 * to it: Miniflare's entry worker, which serves Miniflare's own URL, is a JS
 * worker in the same process that parses, copies and re-sends every request
 * (new `Request`, two URL parses, the `cf` object, header edits) before the
 * worker sees it. Measured 2026-12-06 (15 interleaved rounds, the REST read
 * and the hand-written route each both ways): 0.15 ms of CPU per request,
 * the same for both targets, 37 % of the CPU the bench measured per request,
 * work no deployed worker does. Counted in, it diluted every ratio (the REST
 * read 1.08× through it against 1.12× straight to the worker).
 */
function serve(
  worker: WorkerOptions,
  outdir: string,
  devRegistry: string,
  inspectorPort?: number,
  directSocket = false,
): Miniflare {
  return new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: 0,
      ...(inspectorPort ? { inspectorPort } : {}),
      // The workers' console lines (svc's call records among them) are dropped, not printed:
      // deployed, they go to Workers Logs, not through the load generator's process.
      handleStructuredLogs: () => {},
      // No request line from Miniflare's entry worker, should anything still go through it (the
      // measured requests do not: see `directSocket`).
      logRequests: false,
      unsafeDevRegistryPath: devRegistry,
      workers: [
        {
          ...worker,
          modules: true,
          scriptPath: path.join(outdir, "worker.js"),
          modulesRoot: outdir,
          ...(directSocket ? { unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }] } : {}),
        },
      ],
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
}

/**
 * The benchmark worker (`bench/app`) bundled as `wrangler deploy` bundles it
 * and served by workerd through Miniflare, with its wrangler bindings (D1,
 * SQLite Durable Objects) in memory, fresh each start; `url` is the worker's
 * own socket. Not `wrangler dev`: its extra proxy workerd and per-request
 * logging in Node cost more CPU than the worker under test (measured: ~375
 * req/s for the REST read, the worker's own workerd at 80 % of one core, the
 * rest in wrangler's proxy and Node), which buried the differences between
 * targets in noise. Nor Miniflare's URL, whose entry worker is work no
 * deployed worker does (measured in {@link serve}).
 *
 * The call log store (`SVC_LOGS`) runs in a second workerd process, bound
 * through Miniflare's dev registry, because deployed it is its own Durable
 * Object, never on the calling worker's thread; one local workerd runs every
 * object on one thread, which would bill the store's inserts to the calls
 * (measured: the REST read 0.78× with records in a store on the same thread,
 * 0.84× with the load generator on its own thread). The store's own cost is
 * measured on its own (the observability scenario's write cost per record).
 */
export async function startBenchApp(options: { inspect?: boolean } = {}): Promise<BenchApp> {
  exposeGc();
  const outdir = await mkdtemp(path.join(tmpdir(), "svc-bench-app-"));
  const devRegistry = await mkdtemp(path.join(tmpdir(), "svc-bench-registry-"));
  const config = path.join(APP_DIR, "wrangler.jsonc");
  await buildForDeploy(config, outdir);
  const { modulesRules: _rules, ...worker } = unstable_getMiniflareWorkerOptions(config)
    .workerOptions as WorkerOptions;
  const before = await workerdPids();
  const logStore = serve({ ...worker, name: LOG_STORE_WORKER }, outdir, devRegistry);
  await logStore.ready;
  const storePids = (await workerdPids()).filter((pid) => !before.includes(pid));
  const durableObjects = {
    ...worker.durableObjects,
    SVC_LOGS: { className: "BenchLogStore", scriptName: LOG_STORE_WORKER },
  };
  // BENCH_INSPECTOR_PORT: the worker's workerd answers Chrome DevTools there (CPU profiles).
  const inspectorPort =
    Number(process.env.BENCH_INSPECTOR_PORT) || (options.inspect ? await freePort() : undefined);
  const miniflare = serve({ ...worker, durableObjects }, outdir, devRegistry, inspectorPort, true);
  await miniflare.ready;
  const url = await directUrl(miniflare);
  const workerPids = (await workerdPids()).filter(
    (pid) => !before.includes(pid) && !storePids.includes(pid),
  );
  const unpin = await pinWorker(workerPids, storePids);
  return {
    url,
    workerCpuMs: () => processCpuMs(workerPids),
    ...(inspectorPort ? { inspectorUrl: await workerInspector(inspectorPort) } : {}),
    bundleFile: path.join(outdir, "worker.js"),
    workerPids,
    async settle() {
      const response = await fetch(`${url}/bench/gc`, { method: "POST" });
      if (response.status !== 204)
        throw new Error(`POST /bench/gc: ${response.status} ${await response.text()}`);
    },
    async stop() {
      await unpin?.();
      await miniflare.dispose();
      await logStore.dispose();
      await rm(outdir, { recursive: true, force: true });
      await rm(devRegistry, { recursive: true, force: true });
    },
  };
}

/** The origin of the worker's own socket (see {@link serve}): the only worker of `miniflare`. */
async function directUrl(miniflare: Miniflare): Promise<string> {
  return (await miniflare.unsafeGetDirectURL()).origin;
}

/**
 * Starts workerd with V8's `gc()` (Miniflare passes `MINIFLARE_WORKERD_V8_FLAGS`
 * to it): the bench worker's `/bench/gc` calls it. It adds the function and
 * nothing else; the collector runs as it does without it.
 */
function exposeGc(): void {
  const flags = (process.env.MINIFLARE_WORKERD_V8_FLAGS ?? "").split(" ").filter(Boolean);
  if (!flags.includes("--expose-gc")) flags.push("--expose-gc");
  process.env.MINIFLARE_WORKERD_V8_FLAGS = flags.join(" ");
}

/**
 * The DevTools WebSocket of the user worker on workerd's own inspector port
 * (Miniflare passes `inspectorPort` to workerd when no worker asks for its
 * proxy): workerd lists its isolates at `/json`, user workers as `core:user:<name>`.
 */
async function workerInspector(port: number): Promise<string> {
  const list = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { id: string }[];
  const user = list.find(({ id }) => id.startsWith("core:user:") && !id.includes("__miniflare"));
  if (!user) throw new Error(`no user worker on the inspector: ${JSON.stringify(list)}`);
  return `ws://127.0.0.1:${port}/${user.id}`;
}

/** Inserts the row the REST/RPC reads fetch (`rows:seed` in shard `bench`) and answers its id. */
export async function seedRow(app: BenchApp): Promise<string> {
  const { body } = await postJson(`${app.url}/_svc/rpc?shardKey=bench`, {
    path: "rows:seed",
    args: {},
  });
  return (body as { value: string }).value;
}

/**
 * The `cookie` header a browser would send back after `response`: each
 * `set-cookie`'s name=value, attributes dropped (a sign-in's session cookies).
 *
 * @example
 * ```ts
 * const { response } = await postJson(`${app.url}/api/auth/sign-up/email`, account, { origin: app.url });
 * await fetch(url, { headers: { cookie: cookieHeaderOf(response) } });
 * ```
 */
export function cookieHeaderOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
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
