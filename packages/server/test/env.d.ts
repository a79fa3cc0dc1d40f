declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./worker.ts");
    durableNamespaces: "Shard";
  }
  interface Env {
    SHARD: DurableObjectNamespace;
    DATA_SHARD: DurableObjectNamespace;
    JOBS: Queue;
    SVC_LOGS: DurableObjectNamespace;
    SMALL_LOGS: DurableObjectNamespace;
    BROKEN_LOGS: DurableObjectNamespace;
    COUNTED_LOGS: DurableObjectNamespace<import("./worker.ts").CountingLogStore>;
    BACKUPS: R2Bucket;
    FILES: R2Bucket;
    FILES_SHARD: DurableObjectNamespace;
    FILES_BARE_SHARD: DurableObjectNamespace;
    SVC_STORAGE_SECRET: string;
  }
}
