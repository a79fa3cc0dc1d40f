declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./worker.ts");
    durableNamespaces:
      | "RateLimitStore"
      | "BrokenStore"
      | "SilentStore"
      | "KvBackedStore"
      | "CountingStore"
      | "LimitingObject"
      | "SlowStore";
  }
  interface Env {
    RATE_LIMIT: DurableObjectNamespace<import("../src/index.ts").RateLimitStore>;
    BROKEN_STORE: DurableObjectNamespace<import("./worker.ts").BrokenStore>;
    SILENT_STORE: DurableObjectNamespace<import("./worker.ts").SilentStore>;
    KV_BACKED_STORE: DurableObjectNamespace<import("./worker.ts").KvBackedStore>;
    COUNTING_STORE: DurableObjectNamespace<import("./worker.ts").CountingStore>;
    LIMITING_OBJECT: DurableObjectNamespace<import("./worker.ts").LimitingObject>;
    SLOW_STORE: DurableObjectNamespace<import("./worker.ts").SlowStore>;
  }
}
