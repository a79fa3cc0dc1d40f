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
 * The newest compatibility date `npm run dev` can run: Cloudflare's Vite plugin
 * (1.64) brings its own workerd, which refuses dates after 2026-10-19 (the
 * API template's wrangler is newer). Raise it with the plugin.
 */
export const VITE_COMPATIBILITY_DATE = "2026-10-01";

/**
 * `wrangler.jsonc` with static assets, inserted after the
 * `compatibility_flags` line, and the compatibility date Cloudflare's Vite
 * plugin runs; a config without those lines is refused (the template
 * changed: update this function with it).
 *
 * @example
 * ```ts
 * withStaticAssets('{\n  "compatibility_date": "2026-11-01",\n  "compatibility_flags": ["nodejs_compat"],\n}')
 * ```
 */
export function withStaticAssets(jsonc: string): string {
  const date = /^ {2}"compatibility_date": "[\d-]+",\n/m;
  const flags = /^ {2}"compatibility_flags": .*\n/m.exec(jsonc);
  if (flags === null || !date.test(jsonc)) {
    throw new Error(
      "create-svc: the template's wrangler.jsonc has no compatibility_date or compatibility_flags line",
    );
  }
  const end = flags.index + flags[0].length;
  return (jsonc.slice(0, end) + ASSETS_BLOCK + jsonc.slice(end)).replace(
    date,
    `  "compatibility_date": "${VITE_COMPATIBILITY_DATE}",\n`,
  );
}
