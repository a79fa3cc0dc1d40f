import { sha256Hex } from "../sha256-hex.ts";

/** How every svc API key starts: no better-auth session token has an underscore, so the two never mix. */
export const API_KEY_PREFIX = "svc_";
/** Header that carries an API key (besides `Authorization: Bearer svc_…`). */
export const API_KEY_HEADER = "x-api-key";
const SECRET_LENGTH = 48;
/** Characters shown of a key (`svc_` and 8 more) in lists, so people can tell keys apart. */
const VISIBLE_LENGTH = API_KEY_PREFIX.length + 8;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9]{${SECRET_LENGTH}}$`);

/** `count` characters of {@link ALPHABET}, uniformly (bytes ≥ 248 are redrawn, so none is likelier). */
function randomText(count: number): string {
  let text = "";
  while (text.length < count) {
    for (const byte of crypto.getRandomValues(new Uint8Array(count))) {
      if (byte < 248 && text.length < count) text += ALPHABET[byte % ALPHABET.length];
    }
  }
  return text;
}

/**
 * A new API key: `svc_` and 48 random letters and digits (about 285 bits,
 * so a plain SHA-256 of it is a safe thing to store and look up: nothing
 * can be guessed from the hash, and no slow hash is needed), its visible
 * prefix, and that hash. The key itself is shown once and stored nowhere.
 *
 * @example
 * ```ts
 * const { key, prefix, hash } = await generateApiKey(); // key: "svc_k7Qx3mPa…", prefix: "svc_k7Qx3mPa"
 * ```
 */
export async function generateApiKey(): Promise<{ key: string; prefix: string; hash: string }> {
  const key = `${API_KEY_PREFIX}${randomText(SECRET_LENGTH)}`;
  return { key, prefix: key.slice(0, VISIBLE_LENGTH), hash: await hashApiKey(key) };
}

/**
 * The stored form of a key: its SHA-256 in hex. Keys are looked up by it,
 * so no comparison of secrets happens at all (and the index lookup on a
 * hash tells a timing observer nothing about any key).
 *
 * @example await hashApiKey("svc_…") // "9f86d08…"
 */
export function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}

/**
 * The API key a request presents: the `x-api-key` header, or an
 * `Authorization: Bearer` token that starts with `svc_` (any other bearer
 * token is a better-auth session's); `undefined` when it presents none.
 *
 * @example presentedApiKey(request) // "svc_k7Qx3mPa…"
 */
export function presentedApiKey(request: Request): string | undefined {
  const header = request.headers.get(API_KEY_HEADER);
  if (header !== null) return header.trim();
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  return bearer?.startsWith(API_KEY_PREFIX) ? bearer : undefined;
}

/** True when `key` has the shape of a key svc issued (anything else is refused without a lookup). */
export function isApiKeyShaped(key: string): boolean {
  return KEY_SHAPE.test(key);
}
