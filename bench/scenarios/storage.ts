import { readFile } from "node:fs/promises";
import { type BenchApp, postJson, startBenchApp } from "../lib/bench-app.ts";

/** File storage through svc against the same bytes through a hand-written R2 route. */
export interface StorageResult {
  /** Size of each file in the throughput rows (MiB). */
  fileMiB: number;
  /** Files moved per round and target, `concurrency` at a time. */
  filesPerRound: number;
  concurrency: number;
  /**
   * Median MiB/s over the rounds. svc's upload includes the mutation that
   * issues its URL (the real flow: one RPC, then the `POST`); its download is
   * the signed URL `getUrl` answered.
   */
  upload: Transfer;
  download: Transfer;
  /** `ctx.storage.getUrl` in a query: the slope of 1,000 calls against none (µs per call, median of 5). */
  getUrlMicros: number;
  /**
   * Growth of the worker's workerd resident memory (VmRSS sampled every
   * 20 ms) while one file of `fileMiB` goes up: through svc, through the
   * hand-written streaming route, and through a route that reads the whole
   * body first (what streaming avoids).
   */
  memory: { fileMiB: number; svcMiB: number; plainStreamMiB: number; plainBufferedMiB: number };
}

/** One direction's figures: throughput, its ratio, and the worker's CPU per MiB moved. */
export interface Transfer {
  svcMiBps: number;
  plainMiBps: number;
  /** svc over hand-written throughput (goal ≥ 0.9). */
  ratio: number;
  /** Median workerd CPU (ms) per MiB moved, the worker and its shards together. */
  svcCpuMsPerMiB: number;
  plainCpuMsPerMiB: number;
}

const MIB = 1024 * 1024;
const FILE_MIB = 8;
const FILES_PER_ROUND = 16;
const CONCURRENCY = 4;
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 5;
const BIG_MIB = 100;
/** The caller of the storage calls (the header-identity worker: the uploader may read its files). */
const CALLER = { "x-bench-variant": "header-identity", "x-bench-user": "files-bench" };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function rpc<T>(app: BenchApp, path: string, args: unknown): Promise<T> {
  const { body } = await postJson(
    `${app.url}/_svc/rpc?shardKey=files-bench`,
    { path, args },
    CALLER,
  );
  return (body as { value: T }).value;
}

async function svcUpload(app: BenchApp, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const url = await rpc<string>(app, "files:uploadUrl", { maxBytes: bytes.length });
  const response = await fetch(`${app.url}${url}`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream" },
    body: bytes,
  });
  if (!response.ok) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { storageId: string }).storageId;
}

async function plainUpload(
  app: BenchApp,
  bytes: Uint8Array<ArrayBuffer>,
  name: string,
  buffered = false,
) {
  const prefix = buffered ? "plain-files-buffered" : "plain-files";
  const response = await fetch(`${app.url}/${prefix}/${name}`, {
    method: "PUT",
    headers: { "content-type": "application/octet-stream" },
    body: bytes,
  });
  if (!response.ok) throw new Error(`plain upload answered ${response.status}`);
  await response.arrayBuffer();
}

async function download(url: string, size: number): Promise<void> {
  const response = await fetch(url);
  const read = (await response.arrayBuffer()).byteLength;
  if (!response.ok || read !== size)
    throw new Error(`${url} answered ${response.status}, ${read} bytes`);
}

/** MiB/s and workerd CPU ms per MiB of `files` transfers, `CONCURRENCY` at a time. */
async function measure(
  app: BenchApp,
  files: number,
  work: (i: number) => Promise<void>,
): Promise<{ mibps: number; cpuMsPerMiB: number }> {
  const cpu = await app.workerCpuMs();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < files) await work(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const mib = files * FILE_MIB;
  return { mibps: mib / seconds, cpuMsPerMiB: ((await app.workerCpuMs()) - cpu) / mib };
}

type Samples = Record<"svc" | "plain", { mibps: number; cpuMsPerMiB: number }[]>;

function transfer(samples: Samples): Transfer {
  const svc = median(samples.svc.map((s) => s.mibps));
  const plain = median(samples.plain.map((s) => s.mibps));
  return {
    svcMiBps: svc,
    plainMiBps: plain,
    ratio: median(samples.svc.map((s, i) => s.mibps / samples.plain[i]!.mibps)),
    svcCpuMsPerMiB: median(samples.svc.map((s) => s.cpuMsPerMiB)),
    plainCpuMsPerMiB: median(samples.plain.map((s) => s.cpuMsPerMiB)),
  };
}

async function rssMiB(pids: readonly number[]): Promise<number> {
  let kib = 0;
  for (const pid of pids) {
    const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
    kib += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  }
  return kib / 1024;
}

/** How far the worker's RSS rose above where it stood while `work` ran (MiB). */
async function rssGrowth(app: BenchApp, work: () => Promise<void>): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const before = await rssMiB(app.workerPids);
  let peak = before;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, await rssMiB(app.workerPids));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    await work();
  } finally {
    running = false;
    await sampler;
  }
  return peak - before;
}

function bytesOf(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 4096) bytes[i] = (i / 4096 + seed) & 0xff;
  return bytes;
}

/**
 * The storage scenario (issue 48): upload and download throughput of 8 MiB
 * files through svc (`generateUploadUrl` + `POST`, `getUrl` + `GET`) and
 * through a hand-written R2 route on the same bucket, interleaved round by
 * round; what `getUrl` costs per call; and how much the worker's memory grows
 * while a 100 MiB file streams in.
 */
export async function measureStorage(log: (line: string) => void): Promise<StorageResult> {
  const app = await startBenchApp();
  try {
    const bytes = bytesOf(FILE_MIB * MIB, 1);
    const uploads: Samples = { svc: [], plain: [] };
    const downloads: Samples = { svc: [], plain: [] };
    const stored = await svcUpload(app, bytes);
    const svcUrl = `${app.url}${await rpc<string>(app, "files:url", { file: stored })}`;
    await plainUpload(app, bytes, "download");
    const plainUrl = `${app.url}/plain-files/download`;
    for (let round = 0; round < ROUNDS; round++) {
      uploads.svc.push(
        await measure(app, FILES_PER_ROUND, () => svcUpload(app, bytes).then(() => {})),
      );
      uploads.plain.push(
        await measure(app, FILES_PER_ROUND, (i) => plainUpload(app, bytes, `r${round}-${i}`)),
      );
      downloads.svc.push(await measure(app, FILES_PER_ROUND, () => download(svcUrl, bytes.length)));
      downloads.plain.push(
        await measure(app, FILES_PER_ROUND, () => download(plainUrl, bytes.length)),
      );
      const last = (samples: Samples) =>
        `${samples.svc.at(-1)!.mibps.toFixed(0)} / ${samples.plain.at(-1)!.mibps.toFixed(0)} MiB/s ` +
        `(${samples.svc.at(-1)!.cpuMsPerMiB.toFixed(2)} / ${samples.plain.at(-1)!.cpuMsPerMiB.toFixed(2)} ms CPU/MiB)`;
      log(
        `    round ${round + 1}: upload ${last(uploads)}, download ${last(downloads)} (svc / hand-written)`,
      );
    }
    const slopes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const none = performance.now();
      await rpc(app, "files:urls", { file: stored, count: 0 });
      const noneMs = performance.now() - none;
      const many = performance.now();
      await rpc(app, "files:urls", { file: stored, count: 1_000 });
      slopes.push(((performance.now() - many - noneMs) * 1000) / 1_000);
    }
    const big = bytesOf(BIG_MIB * MIB, 2);
    const memory = {
      fileMiB: BIG_MIB,
      svcMiB: await rssGrowth(app, () => svcUpload(app, big).then(() => {})),
      plainStreamMiB: await rssGrowth(app, () => plainUpload(app, big, "big-stream")),
      plainBufferedMiB: await rssGrowth(app, () => plainUpload(app, big, "big-buffered", true)),
    };
    log(
      `    100 MiB upload, worker RSS growth: svc ${memory.svcMiB.toFixed(0)} MiB, hand-written streaming ${memory.plainStreamMiB.toFixed(0)} MiB, buffered ${memory.plainBufferedMiB.toFixed(0)} MiB`,
    );
    return {
      fileMiB: FILE_MIB,
      filesPerRound: FILES_PER_ROUND,
      concurrency: CONCURRENCY,
      upload: transfer(uploads),
      download: transfer(downloads),
      getUrlMicros: median(slopes),
      memory,
    };
  } finally {
    await app.stop();
  }
}
