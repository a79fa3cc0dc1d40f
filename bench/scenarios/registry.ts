import { BENCH_ADMIN_TOKEN } from "../app/src/studio-admin.ts";
import { postJson, startBenchApp } from "../lib/bench-app.ts";
import { compare, type LoadFigures, median, medianRatio } from "../lib/load.ts";

/** The shard registry's cost on calls, and backup throughput. */
export interface RegistryResult {
  figures: LoadFigures[];
  /** REST read, registry on over off (throughput; goal ≥ 0.98, i.e. a cost ≤ 2 %). */
  readRatio: number;
  /** RPC write (one insert), registry on over off (throughput). */
  writeRatio: number;
  /** First call into a new shard, median latency (ms), registry on and off. */
  newShardMs: { on: number; off: number };
  /** Documents in the exported shard. */
  documents: number;
  /** Throughput in documents per second (median of the runs). */
  docsPerSecond: { export: number; import: number; backupToR2: number; restoreFromR2: number };
  /**
   * The baselines of the same run, in documents per second: the same
   * documents read page by page through the data studio's browse route
   * (100 a page, the way to read them all without export), and written by
   * the app's own mutation (5,000 documents a call, the seeding).
   */
  baselineDocsPerSecond: { pagedRead: number; mutationInsert: number };
  /** One page of `GET shards` (all 16 partitions read and merged), median latency (ms). */
  listPageMs: { shards: number; page: number; search: number };
}

const ADMIN = { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, "x-bench-variant": "admin" };
/** Posts seeded into the exported shard; each is two documents (posts and fnPosts). */
const POSTS = 50_000;
const BATCH = 2_500;
const NEW_SHARDS = 100;
const RUNS = 3;

async function adminFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { ...init, headers: { ...ADMIN, ...init.headers } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** Seconds `work` took. */
async function seconds(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/**
 * Reads every document of `tables` in shard `key` through the data studio's
 * browse route, 100 a page (its largest), the way an operator reads a
 * shard without export. Answers how many it read.
 */
async function readAllPages(url: string, key: string, tables: string[]): Promise<number> {
  let read = 0;
  for (const table of tables) {
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
      const response = await adminFetch(
        `${url}/_svc/admin/data/shards/${key}/tables/${table}/documents?limit=100${query}`,
        { headers: { "x-bench-variant": "studio" } },
      );
      const page = (await response.json()) as { documents: unknown[]; nextCursor: string | null };
      read += page.documents.length;
      cursor = page.nextCursor;
    } while (cursor !== null);
  }
  return read;
}

/**
 * The registry scenario: (1) what the registry costs the calls it watches —
 * the REST read and an RPC write against the same shard class with the
 * registry on (default 10 s interval) and off, interleaved in one run, and
 * the first call into a new shard (which records the shard's creation and
 * arms its first report); (2) backup throughput over a shard of 100,000
 * documents: export and import through the admin routes, backup to and
 * restore from R2 (Miniflare's local R2), each against a baseline of the
 * same run (paged reads, mutation inserts, export, import).
 */
export async function measureRegistry(log: (line: string) => void): Promise<RegistryResult> {
  const app = await startBenchApp();
  try {
    const seedRow = async (variant: string) => {
      const { body } = await postJson(
        `${app.url}/_svc/rpc?shardKey=reg-bench`,
        { path: "rows:seed", args: {} },
        { "x-bench-variant": variant },
      );
      return (body as { value: string }).value;
    };
    const read = (name: string, id: string, variant: string) => ({
      name,
      url: `${app.url}/_svc/rest/rows/get?shardKey=reg-bench&id=${id}`,
      headers: { "x-bench-variant": variant },
    });
    const write = (name: string, variant: string) => ({
      name,
      method: "POST" as const,
      url: `${app.url}/_svc/rpc?shardKey=reg-bench`,
      headers: { "content-type": "application/json", "x-bench-variant": variant },
      body: JSON.stringify({ path: "rows:seed", args: {} }),
    });
    const figures = await compare(
      [
        read("REST read, registry on", await seedRow("plain"), "plain"),
        read("REST read, registry off", await seedRow("no-registry"), "no-registry"),
        write("RPC write, registry on", "plain"),
        write("RPC write, registry off", "no-registry"),
      ],
      undefined,
      log,
    );
    const [readOn, readOff, writeOn, writeOff] = figures as [
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
    ];

    log(`  first call into ${NEW_SHARDS} new shards, registry on and off`);
    const firstCall = { on: [] as number[], off: [] as number[] };
    for (let i = 0; i < NEW_SHARDS; i++) {
      for (const [variant, times] of [
        ["plain", firstCall.on],
        ["no-registry", firstCall.off],
      ] as const) {
        const started = performance.now();
        await postJson(
          `${app.url}/_svc/rpc?shardKey=new-${variant}-${i}`,
          { path: "rows:seed", args: {} },
          { "x-bench-variant": variant },
        );
        times.push(performance.now() - started);
      }
    }

    log(`  seeding ${(POSTS * 2).toLocaleString("en-US")} documents`);
    const seedSeconds = await seconds(async () => {
      for (let from = 0; from < POSTS; from += BATCH) {
        await postJson(`${app.url}/_svc/rpc?shardKey=export-src`, {
          path: "posts:seed",
          args: { author: "me", count: Math.min(BATCH, POSTS - from), from },
        });
      }
    });
    // The new shard appears in the registry one interval (10 s) after it started.
    for (;;) {
      const response = await fetch(`${app.url}/_svc/admin/data/shards/export-src`, {
        headers: ADMIN,
      });
      if (response.ok && ((await response.json()) as { documents: number }).documents === POSTS * 2)
        break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const documents = POSTS * 2;
    const times = {
      pagedRead: [] as number[],
      export: [] as number[],
      import: [] as number[],
      backup: [] as number[],
      restore: [] as number[],
    };
    let file = new Uint8Array();
    for (let run = 0; run < RUNS; run++) {
      log(`  run ${run + 1}/${RUNS}: paged read, export, import, backup to R2, restore from R2`);
      times.pagedRead.push(
        await seconds(async () => {
          const read = await readAllPages(app.url, "export-src", ["posts", "fnPosts"]);
          if (read !== documents) throw new Error(`paged read found ${read} of ${documents}`);
        }),
      );
      times.export.push(
        await seconds(async () => {
          const response = await adminFetch(`${app.url}/_svc/admin/data/shards/export-src/export`);
          file = new Uint8Array(await response.arrayBuffer());
        }),
      );
      times.import.push(
        await seconds(() =>
          adminFetch(`${app.url}/_svc/admin/data/shards/import-${run}/import`, {
            method: "POST",
            headers: { "content-type": "application/x-ndjson" },
            body: file,
          }),
        ),
      );
      let backup = "";
      times.backup.push(
        await seconds(async () => {
          const response = await adminFetch(`${app.url}/_svc/admin/data/shards/export-src/backup`, {
            method: "POST",
          });
          backup = ((await response.json()) as { id: string }).id;
        }),
      );
      times.restore.push(
        await seconds(() =>
          adminFetch(`${app.url}/_svc/admin/data/shards/restore-${run}/restore`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ backup }),
          }),
        ),
      );
    }
    log("  listing the registry");
    const listTimes = { page: [] as number[], search: [] as number[] };
    let listed = 0;
    for (let i = 0; i < 15; i++) {
      listTimes.page.push(
        await seconds(async () => {
          const response = await adminFetch(`${app.url}/_svc/admin/data/shards?limit=50`);
          await response.arrayBuffer();
        }),
      );
      listTimes.search.push(
        await seconds(async () => {
          const response = await adminFetch(
            `${app.url}/_svc/admin/data/shards?search=plain-9&limit=50`,
          );
          await response.arrayBuffer();
        }),
      );
    }
    for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
      const query: string = cursor === null ? "" : `&cursor=${cursor}`;
      const response = await adminFetch(`${app.url}/_svc/admin/data/shards?limit=200${query}`);
      const page = (await response.json()) as { shards: unknown[]; nextCursor: string | null };
      listed += page.shards.length;
      cursor = page.nextCursor;
    }
    const rate = (list: number[]) => Math.round(documents / median(list));
    return {
      figures,
      readRatio: medianRatio(readOn, readOff),
      writeRatio: medianRatio(writeOn, writeOff),
      newShardMs: { on: median(firstCall.on), off: median(firstCall.off) },
      documents,
      docsPerSecond: {
        export: rate(times.export),
        import: rate(times.import),
        backupToR2: rate(times.backup),
        restoreFromR2: rate(times.restore),
      },
      baselineDocsPerSecond: {
        pagedRead: rate(times.pagedRead),
        mutationInsert: Math.round(documents / seedSeconds),
      },
      listPageMs: {
        shards: listed,
        page: median(listTimes.page) * 1000,
        search: median(listTimes.search) * 1000,
      },
    };
  } finally {
    await app.stop();
  }
}
