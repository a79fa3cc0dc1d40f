import { SvcError } from "../errors/svc-error.ts";
import { fromBase64, toBase64 } from "../values/json-codec.ts";

/** What an upload URL allows: one `POST` of one file into one shard, until it expires. */
export interface UploadGrant {
  kind: "upload";
  shardKey: string;
  /** The storage id the file gets (issued with the URL, so the URL is single-use). */
  id: string;
  /** Epoch ms after which the URL is refused. */
  expiresAt: number;
  /** Largest accepted body, in bytes. */
  maxBytes: number;
  /** Accepted content types (exact, lower case, no parameters); `null` accepts any. */
  contentTypes: string[] | null;
}

/** What a download URL allows: reading one file until it expires. */
export interface DownloadGrant {
  kind: "download";
  shardKey: string;
  id: string;
  expiresAt: number;
  /** Sent as the file name in `Content-Disposition`. */
  filename: string | null;
}

/** Either grant a storage URL carries. */
export type Grant = UploadGrant | DownloadGrant;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    key = crypto.subtle.importKey(
      "raw",
      encoder.encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    keys.set(secret, key);
  }
  return key;
}

function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  return fromBase64(text.replaceAll("-", "+").replaceAll("_", "/")) ?? null;
}

/**
 * Signs a grant into the token a storage URL carries: the grant as base64url
 * JSON, a dot, and its HMAC-SHA-256 under the app's storage secret. The
 * worker checks it without asking the shard, so a download costs no shard call.
 *
 * @example const token = await signGrant(secret, { kind: "download", shardKey, id, expiresAt, filename: null });
 */
export async function signGrant(secret: string, grant: Grant): Promise<string> {
  const payload = toBase64Url(encoder.encode(JSON.stringify(grant)));
  const signature = await crypto.subtle.sign(
    "HMAC",
    await hmacKey(secret),
    encoder.encode(payload),
  );
  return `${payload}.${toBase64Url(new Uint8Array(signature))}`;
}

function refused(reason: "forged" | "expired" | "wrong_kind", message: string): SvcError {
  return new SvcError("FORBIDDEN", message, { data: { reason } });
}

/**
 * Checks a storage URL's token and answers its grant: the signature is
 * verified by `crypto.subtle.verify` (constant time), then the expiry and the
 * kind. A bad signature is `FORBIDDEN` with `data.reason` `forged`, a late
 * one `expired`.
 *
 * @example const grant = await verifyGrant(secret, url.searchParams.get("token"), "upload", Date.now());
 */
export async function verifyGrant<Kind extends Grant["kind"]>(
  secret: string,
  token: string | null,
  kind: Kind,
  now: number,
): Promise<Extract<Grant, { kind: Kind }>> {
  const [payload, signature, extra] = (token ?? "").split(".");
  const signatureBytes = fromBase64Url(signature ?? "");
  // Only the canonical encoding counts: a token has one spelling, so it cannot be varied.
  if (
    payload === undefined ||
    signatureBytes === null ||
    extra !== undefined ||
    !payload ||
    toBase64Url(signatureBytes) !== signature
  ) {
    throw refused("forged", "This storage URL is not valid.");
  }
  const valid = await crypto.subtle.verify(
    "HMAC",
    await hmacKey(secret),
    signatureBytes,
    encoder.encode(payload),
  );
  if (!valid) throw refused("forged", "This storage URL is not valid.");
  const grant = JSON.parse(decoder.decode(fromBase64Url(payload) ?? new Uint8Array())) as Grant;
  if (grant.kind !== kind) throw refused("wrong_kind", `This storage URL is not for ${kind}s.`);
  if (!(grant.expiresAt > now)) throw refused("expired", "This storage URL has expired.");
  return grant as Extract<Grant, { kind: Kind }>;
}
