declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./worker.ts");
    durableNamespaces: "Shard";
  }
  interface Env {
    SHARD: DurableObjectNamespace;
  }
}
