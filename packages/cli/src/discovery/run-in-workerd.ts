import { existsSync } from "node:fs";
import path from "node:path";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { wranglerMiniflare } from "./wrangler-miniflare.ts";

/**
 * Runs the discovery bundle in workerd (Miniflare) with the app's bindings
 * from its wrangler config (minus Durable Objects, whose classes live in the
 * app's main module), posts `input`, and returns the JSON answer. Miniflare is
 * the app's wrangler's own (one workerd in the app).
 */
export async function runInWorkerd<T>(appDir: string, script: string, input: unknown): Promise<T> {
  const configPath = ["wrangler.jsonc", "wrangler.json", "wrangler.toml"]
    .map((name) => path.join(appDir, name))
    .find(existsSync);
  const base = configPath
    ? unstable_getMiniflareWorkerOptions(configPath).workerOptions
    : { compatibilityDate: "2026-10-01", compatibilityFlags: ["nodejs_compat"] };
  const {
    durableObjects: _durableObjects,
    modulesRules: _rules,
    rootPath: _root,
    ...workerOptions
  } = base as Record<string, unknown>;
  const { convertV4MiniflareOptions, Miniflare } = await wranglerMiniflare();
  const options = { workers: [{ ...workerOptions, name: "svc-codegen", modules: true, script }] };
  const miniflare = new Miniflare(
    convertV4MiniflareOptions(options as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  try {
    const response = await miniflare.dispatchFetch("http://svc-codegen.local/", {
      method: "POST",
      body: JSON.stringify(input),
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(`svc codegen: discovery failed (${response.status}): ${text}`);
    return JSON.parse(text) as T;
  } finally {
    await miniflare.dispose();
  }
}
