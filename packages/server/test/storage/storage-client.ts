import { exports } from "cloudflare:workers";
import { FILES_WORKER_HEADER } from "./files-app.ts";

const ORIGIN = "http://svc.test";

/** Calls a procedure of the storage tests' worker as `user` in shard `shardKey`. */
export async function filesCall<T = unknown>(
  path: string,
  args: unknown,
  user: string | null,
  shardKey: string,
): Promise<{ status: number; body: { value?: T; code?: string; data?: unknown } }> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    [FILES_WORKER_HEADER]: "1",
  };
  if (user !== null) headers["x-test-user"] = user;
  const response = await exports.default.fetch(
    `${ORIGIN}/_svc/rpc?shardKey=${encodeURIComponent(shardKey)}`,
    { method: "POST", headers, body: JSON.stringify({ path, args }) },
  );
  return { status: response.status, body: (await response.json()) as never };
}

/** Calls and unwraps `{ value }`, failing loudly on an error. */
export async function filesValue<T = unknown>(
  path: string,
  args: unknown,
  user: string | null,
  shardKey: string,
): Promise<T> {
  const { status, body } = await filesCall<T>(path, args, user, shardKey);
  if (status !== 200) throw new Error(`${path} answered ${status}: ${JSON.stringify(body)}`);
  return body.value as T;
}

/** Fetches a root-relative storage URL on the storage tests' worker. */
export function storageFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set(FILES_WORKER_HEADER, "1");
  return exports.default.fetch(`${ORIGIN}${path}`, { ...init, headers });
}

/** `POST`s bytes to an upload URL, answering the status and body. */
export async function upload(
  uploadUrl: string,
  bytes: Uint8Array,
  contentType = "application/octet-stream",
): Promise<{
  status: number;
  body: { storageId?: string; code?: string; data?: { reason?: string } };
}> {
  const response = await storageFetch(uploadUrl, {
    method: "POST",
    headers: { "content-type": contentType },
    body: bytes,
  });
  return { status: response.status, body: (await response.json()) as never };
}

/**
 * Stores `body` through the operator's files route (`POST shards/:key`,
 * `admin` fetching under `/_svc/admin/files/`), answering the new file's id.
 */
export async function operatorPut(
  admin: (path: string, init: RequestInit) => Promise<Response>,
  shard: string,
  body: string | Uint8Array,
): Promise<string> {
  const put = await admin(`shards/${shard}`, {
    method: "POST",
    headers: {
      "content-type": typeof body === "string" ? "text/plain" : "application/octet-stream",
    },
    body,
  });
  if (put.status !== 201) throw new Error(`the operator's put answered ${put.status}`);
  return ((await put.json()) as { storageId: string }).storageId;
}

/** Lower-case hex SHA-256 of `bytes`. */
export async function sha256(bytes: Uint8Array | ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** `length` pseudo-random bytes (deterministic per seed). */
export function bytesOf(length: number, seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}
