import { createHmac } from "node:crypto";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.replace(/=+$/, "").toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index === -1) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/**
 * The RFC 6238 code (SHA-1, 6 digits, 30 s) of the `secret` in an
 * `otpauth://` URI, `step` periods from now: what an authenticator app shows.
 *
 * @example
 * ```ts
 * const code = totpCode(totpURI); // "492039"
 * ```
 */
export function totpCode(uri: string, step = 0): string {
  const secret = new URL(uri).searchParams.get("secret");
  if (!secret) throw new Error(`no secret in ${uri}`);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + step));
  const mac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = (mac.at(-1) ?? 0) & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** A 6-digit code no window better-auth accepts (the previous, current and next period) matches. */
export function wrongTotpCode(uri: string): string {
  const accepted = new Set([-1, 0, 1].map((step) => totpCode(uri, step)));
  return ["000000", "111111", "222222", "333333"].find((code) => !accepted.has(code)) ?? "444444";
}
