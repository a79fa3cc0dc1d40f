/**
 * Bytes as lowercase hexadecimal, two digits a byte: how svc prints a
 * digest (a file's SHA-256, a schema version, a hashed socket tag), so every
 * place that shows one spells it the same way.
 *
 * @example hexOf(await crypto.subtle.digest("SHA-256", bytes)) // "9f86d0…"
 */
export function hexOf(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return Array.from(view, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
