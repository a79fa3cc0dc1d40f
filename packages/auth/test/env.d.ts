declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./worker.ts");
    durableNamespaces: "Shard" | "RateLimitStore" | "BrokenLimiterStore";
  }
  interface Env {
    SHARD: DurableObjectNamespace;
    /** `@svc/ratelimit`'s store, for the auth endpoint limits. */
    RATE_LIMITER: DurableObjectNamespace;
    /** A limiter store that always fails (an outage). */
    BROKEN_LIMITER: DurableObjectNamespace;
    /** The test worker's auth database. */
    DB: D1Database;
    /** Fresh databases, one per migration scenario. */
    MIGRATE_LARGE: D1Database;
    MIGRATE_COMPILED: D1Database;
    MIGRATE_CONCURRENT: D1Database;
    MIGRATE_COMMUNITY: D1Database;
    MIGRATE_RETRY: D1Database;
    MIGRATE_SEARCH: D1Database;
    MIGRATE_ACTIVITY: D1Database;
    MIGRATE_REVOCATION: D1Database;
    ADMIN_EXPORT: D1Database;
    ADMIN_FOLDING: D1Database;
    ADMIN_IMPORT: D1Database;
    /** The admin surface's auth database (test/fixture/admin.ts). */
    ADMIN_DB: D1Database;
    /** 10,000 seeded users for the paging test. */
    ADMIN_BULK: D1Database;
    /** Sizes of `npm run bench:admin` (vitest.bench.config.ts). */
    BENCH_USERS?: string;
    BENCH_ROUNDS?: string;
    /** The auth of the API key tests (test/api-keys.test.ts). */
    API_KEYS: D1Database;
    /** The auth with every plugin `@svc/auth/plugins` re-exports (test/fixture/every-plugin.ts). */
    EVERY_PLUGIN: D1Database;
    /** Databases built per test for plugin-set variations. */
    ADMIN_SCRATCH: D1Database;
    /** Base URL of the local siteverify stub (vitest globalSetup). */
    SITEVERIFY_URL: string;
    /** Source modules of `wrangler deploy`'s bundle of this worker. */
    BUNDLE_MODULES: string[];
    /** A password hash made by plain better-auth on Node. */
    NODE_PASSWORD_HASH: string;
  }
}
