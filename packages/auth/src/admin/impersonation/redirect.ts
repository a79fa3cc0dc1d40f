const PROBE_ORIGIN = "https://svc.invalid";

/**
 * Whether `path` is a path on the app's own origin, safe to redirect a
 * freshly signed-in browser to: it starts with one `/`, holds no backslash
 * (browsers read `/\evil` as `//evil`), no control character or whitespace,
 * and resolves against any origin to that same origin. `//evil.example`,
 * `https://evil.example` and `javascript:…` all fail.
 *
 * @example
 * ```ts
 * isSameOriginPath("/account?tab=billing"); // true
 * isSameOriginPath("//evil.example/"); // false
 * ```
 */
export function isSameOriginPath(path: string): boolean {
  if (path.length === 0 || path.length > 2000) return false;
  if (!path.startsWith("/") || path.startsWith("//")) return false;
  for (const character of path) {
    const code = character.charCodeAt(0);
    if (character === "\\" || code <= 0x20 || code === 0x7f) return false;
  }
  try {
    return new URL(path, PROBE_ORIGIN).origin === PROBE_ORIGIN;
  } catch {
    return false;
  }
}
