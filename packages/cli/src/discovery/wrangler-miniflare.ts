import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/** What discovery uses of Miniflare; the type comes from the app's wrangler's own copy. */
export type MiniflareModule = typeof import("miniflare");

let loaded: Promise<MiniflareModule> | undefined;

/**
 * The Miniflare that the app's wrangler depends on, not one of the CLI's own: `@svc/cli` brings no
 * Miniflare, so a new app's `node_modules` holds one workerd (the one its wrangler, Cloudflare's
 * Vite plugin and its Vitest plugin agree on) instead of a second, version-skewed copy. Resolved
 * from wrangler's own location, loaded once per process.
 *
 * @example
 * ```ts
 * const { Miniflare } = await wranglerMiniflare();
 * ```
 */
export function wranglerMiniflare(): Promise<MiniflareModule> {
  loaded ??= (async () => {
    const fromCli = createRequire(import.meta.url);
    const fromWrangler = createRequire(fromCli.resolve("wrangler/package.json"));
    return (await import(pathToFileURL(fromWrangler.resolve("miniflare")).href)) as MiniflareModule;
  })();
  return loaded;
}
