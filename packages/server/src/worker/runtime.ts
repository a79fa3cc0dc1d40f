import type { FunctionRegistry } from "../procedures/procedure.ts";
import type { ShardEndpoint } from "../shard/call.ts";
import type { IdentityResolver } from "./invoke.ts";

/** What every route of a worker shares, fixed when `createWorker` is called. */
export interface WorkerRuntime<Env> {
  functions: FunctionRegistry;
  /** The shard stub for a shard key. */
  shard(env: Env, shardKey: string): ShardEndpoint;
  resolveIdentity: IdentityResolver<Env>;
  maxBodyBytes: number;
}
