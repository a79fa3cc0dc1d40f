// The bindings and secrets of this app (wrangler.jsonc and .dev.vars) as
// `wrangler types --include-runtime=false` writes them (`npm run types` regenerates the Env
// part after you change either), plus GlobalProps, which types `exports` in tests.
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./src/worker.ts");
    durableNamespaces: "Shard" | "RateLimitStore";
  }
  interface Env {
    SVC_ADMIN_TOKEN: string;
    AUTH_SECRET: string;
    /** Signs the upload and download URLs of ctx.storage (at least 32 characters). */
    SVC_STORAGE_SECRET: string;
    /** `text`: one short line per call on the console (.dev.vars); unset: the record's JSON. */
    SVC_LOG_FORMAT?: string;
    /** The app's public origin when deployed (e.g. https://app.example.com); unset locally. */
    PUBLIC_URL?: string;
    DB: D1Database;
    SHARD: DurableObjectNamespace;
    RATE_LIMITER: DurableObjectNamespace;
    SVC_FILES: R2Bucket;
  }
}
interface Env extends Cloudflare.Env {}
