import type { CallFacts } from "./call-scope.ts";
import type { RecordingPlan } from "./plan.ts";
import { CallRecorder } from "./recorder.ts";
import type { Lifetime } from "./shipper.ts";

/** FNV-1a over the key: a shard's records always go to the same partition. */
export function partitionOfKey(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}

/**
 * Records calls that start inside a shard, with no worker request around
 * them: subscription re-runs after a commit. The plan comes from the socket's
 * grant (the worker's `logs` option), so a shard records exactly when its
 * worker does.
 */
export class ShardRunRecorder {
  readonly #env: unknown;
  readonly #lifetime: Lifetime;
  readonly #recorders = new Map<string, CallRecorder>();

  constructor(env: unknown, lifetime: Lifetime) {
    this.#env = env;
    this.#lifetime = lifetime;
  }

  /** Runs `work` as one recorded call when `plan` is given; rethrows its failure. */
  run<T>(
    plan: RecordingPlan | null | undefined,
    facts: Partial<CallFacts>,
    work: () => Promise<T>,
  ): Promise<T> {
    if (plan === null || plan === undefined) return work();
    const partition = partitionOfKey(facts.shardKey ?? "default", plan.partitions);
    const key = `${plan.console}|${plan.store}|${plan.partitions}|${partition}`;
    let recorder = this.#recorders.get(key);
    if (recorder === undefined) {
      recorder = new CallRecorder(plan, partition);
      this.#recorders.set(key, recorder);
    }
    return recorder.service(facts, this.#env, this.#lifetime, work);
  }
}
