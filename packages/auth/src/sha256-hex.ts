/**
 * The SHA-256 of a text as 64 lowercase hex digits: for values that must be
 * looked up or keyed without being stored (a rate-limit target's address,
 * a one-time link's code).
 *
 * @example
 * ```ts
 * await sha256Hex("abc"); // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 * ```
 */
export async function sha256Hex(text: string): Promise<string> {
  const bytes = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
