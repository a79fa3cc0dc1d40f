import { createRequire } from "node:module";

/**
 * The version of `@svc/cli` that is running, from its own package.json (one
 * level above both `src/` and `dist/`). `svc --version` prints it and
 * generated files record it, so a stale file says which svc wrote it.
 *
 * @example
 * ```ts
 * console.log(`svc ${SVC_VERSION}`); // "svc 0.1.0"
 * ```
 */
export const SVC_VERSION: string = (
  createRequire(import.meta.url)("../package.json") as { version: string }
).version;
