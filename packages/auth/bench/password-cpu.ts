/**
 * Measures the CPU cost of email + password sign-up and sign-in in workerd.
 *
 * Runs `wrangler dev` on the test worker (real workerd, local D1), sends
 * requests one at a time, and reads the CPU time (user + system) the workerd
 * processes spent from /proc, per request. `get-session` (no hashing) and a
 * trivial better-auth route are measured the same way as baselines. Then, in
 * this Node process, one scrypt hash with better-auth's parameters is timed
 * natively (node:crypto) and in pure JS (@noble/hashes, the fallback).
 *
 * Run: `npm run bench:cpu -w @svc/auth` (Linux only: reads /proc).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { scrypt as nativeScrypt } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scryptAsync } from "@noble/hashes/scrypt.js";

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const PORT = 8799;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const CLOCK_TICKS = 100; // USER_HZ on Linux
/** better-auth's scrypt parameters (`@better-auth/utils/password`). */
const SCRYPT = { N: 16384, r: 16, p: 1, dkLen: 64 };

async function main(): Promise<void> {
  const state = await mkdtemp(join(tmpdir(), "svc-auth-cpu-"));
  const config = fileURLToPath(new URL("../test/wrangler.jsonc", import.meta.url));
  const dev = spawn(
    process.execPath,
    [
      wranglerBin(),
      "dev",
      "--config",
      config,
      "--ip",
      "127.0.0.1",
      "--port",
      String(PORT),
      "--persist-to",
      state,
    ],
    { env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  try {
    await ready(dev);
    const rows: [string, number][] = [];
    const password = "a long enough password";
    const emails = Array.from({ length: ROUNDS }, (_, i) => `cpu-${i}-${Date.now()}@svc.test`);
    await post("/api/auth/sign-up/email", { email: "warm@svc.test", password, name: "w" });
    for (let i = 0; i < 3; i++)
      await post("/api/auth/sign-in/email", { email: "warm@svc.test", password });

    rows.push([
      "sign-up (email + password)",
      await cpuPer(dev, emails, (email) =>
        post("/api/auth/sign-up/email", { email, password, name: "c" }),
      ),
    ]);
    let cookie = "";
    rows.push([
      "sign-in (email + password)",
      await cpuPer(dev, emails, async (email) => {
        const response = await post("/api/auth/sign-in/email", { email, password });
        cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      }),
    ]);
    rows.push([
      "get-session (no hashing)",
      await cpuPer(dev, emails, () =>
        fetch(`${ORIGIN}/api/auth/get-session`, { headers: { cookie } }).then(drain),
      ),
    ]);
    rows.push([
      "GET /api/auth/ok (baseline)",
      await cpuPer(dev, emails, () => fetch(`${ORIGIN}/api/auth/ok`).then(drain)),
    ]);
    rows.push(["scrypt, node:crypto (Node, 1 hash)", await nodeCpu(() => native("pw", "salt"))]);
    rows.push([
      "scrypt, @noble/hashes JS fallback (Node, 1 hash)",
      await nodeCpu(() => scryptAsync("pw", "salt", SCRYPT)),
    ]);
    console.log(`CPU per operation, ${ROUNDS} rounds each (ms):`);
    for (const [name, ms] of rows) console.log(`  ${name.padEnd(48)} ${ms.toFixed(1)}`);
  } finally {
    if (dev.exitCode === null) {
      const exited = new Promise((resolve) => dev.once("exit", resolve));
      dev.kill("SIGTERM");
      await exited;
    }
    await rm(state, { recursive: true, force: true });
  }
}

function wranglerBin(): string {
  return fileURLToPath(new URL("../../../node_modules/wrangler/bin/wrangler.js", import.meta.url));
}

function ready(dev: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("wrangler dev did not start in 60 s")), 60_000);
    dev.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("Ready on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    dev.on("exit", (code) => reject(new Error(`wrangler dev exited with ${code}`)));
  });
}

async function post(path: string, body: unknown): Promise<Response> {
  const response = await fetch(`${ORIGIN}${path}`, {
    method: "POST",
    // The test worker's auth has baseURL http://svc.test, so that is the trusted origin.
    headers: { "content-type": "application/json", origin: "http://svc.test" },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return response;
}

async function drain(response: Response): Promise<void> {
  await response.arrayBuffer();
}

/** CPU seconds (user + system) of every workerd process below `root`. */
async function workerdCpuMs(root: number): Promise<number> {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  const times = new Map<number, number>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    const match = /^(\d+) \((.*)\) \S (\d+)(?: \S+){9} (\d+) (\d+)/.exec(stat);
    if (!match) continue;
    const pid = Number(match[1]);
    names.set(pid, match[2] ?? "");
    parents.set(pid, Number(match[3]));
    times.set(pid, Number(match[4]) + Number(match[5]));
  }
  const below = (pid: number): boolean => {
    for (
      let current = parents.get(pid);
      current !== undefined && current > 1;
      current = parents.get(current)
    ) {
      if (current === root) return true;
    }
    return false;
  };
  let ticks = 0;
  for (const [pid, name] of names)
    if (name.includes("workerd") && below(pid)) ticks += times.get(pid) ?? 0;
  return (ticks * 1000) / CLOCK_TICKS;
}

async function cpuPer(
  dev: ChildProcess,
  items: string[],
  run: (item: string) => Promise<unknown>,
): Promise<number> {
  const root = dev.pid ?? 0;
  const before = await workerdCpuMs(root);
  for (const item of items) await run(item);
  return ((await workerdCpuMs(root)) - before) / items.length;
}

async function nodeCpu(run: () => Promise<unknown>): Promise<number> {
  await run();
  const before = process.cpuUsage();
  for (let i = 0; i < 5; i++) await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / 5;
}

function native(password: string, salt: string): Promise<Buffer> {
  const { N, r, p, dkLen } = SCRYPT;
  return new Promise((resolve, reject) =>
    nativeScrypt(password, salt, dkLen, { N, r, p, maxmem: 128 * N * r * 2 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

await main();
