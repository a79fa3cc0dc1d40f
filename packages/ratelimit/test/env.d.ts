declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./worker.ts");
    durableNamespaces: "RateLimitStore" | "BrokenStore" | "SilentStore";
  }
  interface Env {
    RATE_LIMIT: DurableObjectNamespace<import("../src/index.ts").RateLimitStore>;
    BROKEN_STORE: DurableObjectNamespace<import("./worker.ts").BrokenStore>;
    SILENT_STORE: DurableObjectNamespace<import("./worker.ts").SilentStore>;
  }
}
