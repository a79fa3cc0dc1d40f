/**
 * The `assets` block the React template adds to the API template's
 * wrangler.jsonc: the UI Vite builds is served by the same worker. Patched
 * in rather than kept as a second copy of the file, so everything else the
 * API template's config says (bindings, migrations) stays in one place.
 */
const ASSETS_BLOCK = `  "assets": {
    // The UI Vite builds; any other path gets index.html, and the React app routes it.
    "not_found_handling": "single-page-application",
    // svc's and better-auth's routes always reach the worker, never the UI's fallback.
    "run_worker_first": ["/_svc/*", "/api/*"]
  },
`;

/**
 * `wrangler.jsonc` with static assets, inserted after the
 * `compatibility_flags` line; a config without that line is refused (the
 * template changed: update this function with it). Both templates share one
 * compatibility date: the template's wrangler, Cloudflare's Vite plugin and
 * its Vitest plugin are pinned to one workerd (create-svc's
 * `templateDependencies`), so no date needs lowering for Vite any more.
 *
 * @example
 * ```ts
 * withStaticAssets('{\n  "compatibility_date": "2026-10-01",\n  "compatibility_flags": ["nodejs_compat"],\n}')
 * ```
 */
export function withStaticAssets(jsonc: string): string {
  const flags = /^ {2}"compatibility_flags": .*\n/m.exec(jsonc);
  if (flags === null) {
    throw new Error("create-svc: the template's wrangler.jsonc has no compatibility_flags line");
  }
  const end = flags.index + flags[0].length;
  return jsonc.slice(0, end) + ASSETS_BLOCK + jsonc.slice(end);
}
