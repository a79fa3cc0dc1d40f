import { exports } from "cloudflare:workers";
import type { ShardEntry } from "../../src/index.ts";
import { rpcValue } from "../rpc.ts";
import { DATA_WORKER_HEADER } from "./data-worker.ts";

/** Routes a request to the data-lifecycle tests' worker (data-worker.ts). */
export const DATA = { [DATA_WORKER_HEADER]: "1" };

/** Alice's admin token in the test worker. */
export const ADMIN = { authorization: "Bearer test-admin-token-0123456789abcdef" };

/** Calls `/_svc/admin/data/<path>` as alice. */
export function dataAdmin(
  method: string,
  path: string,
  init: { body?: BodyInit; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...DATA, ...ADMIN, ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  }
  return exports.default.fetch(`http://svc.test/_svc/admin/data/${path}`, {
    method,
    headers,
    body,
  });
}

/** {@link dataAdmin}, expecting `status`; answers the parsed JSON body. */
export async function dataJson<T>(
  method: string,
  path: string,
  status: number,
  init?: Parameters<typeof dataAdmin>[2],
): Promise<T> {
  const response = await dataAdmin(method, path, init);
  const text = await response.text();
  if (response.status !== status) {
    throw new Error(`${method} ${path}: expected ${status}, got ${response.status}: ${text}`);
  }
  return JSON.parse(text) as T;
}

/** Writes `notes` notes and `messages` messages (by alice) into shard `key`. */
export function seedShard(key: string, notes: number, messages = 0): Promise<null> {
  return rpcValue(
    "data:seed",
    { notes, messages },
    { shardKey: key, user: "alice", headers: DATA },
  );
}

/** Polls `probe` until it answers something other than `undefined` (every 50 ms, 20 s by default). */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The registry row of `key` once it shows `documents` documents. */
export function registryRow(key: string, documents: number): Promise<ShardEntry> {
  return eventually(async () => {
    const response = await dataAdmin("GET", `shards/${encodeURIComponent(key)}`);
    if (response.status !== 200) return undefined;
    const entry = (await response.json()) as ShardEntry;
    return entry.documents === documents ? entry : undefined;
  }, `shard ${key} in the registry with ${documents} documents`);
}

/** Every document of shard `key`, as its procedures see them. */
export function dumpShard(key: string): Promise<{ notes: unknown[]; messages: unknown[] }> {
  return rpcValue("data:dump", {}, { shardKey: key, user: "alice", headers: DATA });
}
