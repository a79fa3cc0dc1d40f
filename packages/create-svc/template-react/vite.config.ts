import path from "node:path";
import { cloudflare } from "@cloudflare/vite-plugin";
import { codegen } from "@svc/cli";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/** Re-runs `svc codegen` when a file under svc/ changes, so `api.ts` follows your procedures. */
function svcCodegen(): Plugin {
  const svcDir = path.resolve("svc");
  return {
    name: "svc-codegen",
    apply: "serve",
    configureServer(server) {
      server.watcher.on("change", (file) => {
        if (!file.startsWith(svcDir) || file.includes(`${path.sep}_generated${path.sep}`)) return;
        codegen({ appDir: "." }).catch((error: unknown) =>
          server.config.logger.error(String(error)),
        );
      });
    },
  };
}

/**
 * Keeps local secrets out of the build. Cloudflare's plugin writes the
 * worker's `.dev.vars` next to its built config (for `vite preview`), but
 * `dist/` is what gets uploaded, cached by CI and shared; `npm run preview`
 * hands `wrangler dev` the project's own `.dev.vars` instead.
 */
function noLocalSecretsInBuild(): Plugin {
  return {
    name: "svc-no-local-secrets-in-build",
    enforce: "post",
    generateBundle(_options, bundle) {
      for (const file of Object.keys(bundle)) {
        if (path.basename(file).startsWith(".dev.vars")) delete bundle[file];
      }
    },
  };
}

/**
 * One process for `npm run dev`: Vite serves the UI (ui/) with hot reload and
 * Cloudflare's plugin runs the worker (src/worker.ts) in workerd, with its
 * Durable Objects and D1, on the same origin. `npm run build` writes the UI
 * as static assets the same worker serves when deployed.
 */
export default defineConfig({
  plugins: [react(), cloudflare(), svcCodegen(), noLocalSecretsInBuild()],
  server: { host: "127.0.0.1" },
});
