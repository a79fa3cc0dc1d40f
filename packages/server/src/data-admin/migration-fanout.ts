import { normalizeError } from "../errors/normalize.ts";
import type { Outcome } from "../errors/outcome.ts";
import { type SerializedError, serializeError } from "../errors/svc-error.ts";
import type { DryRunReport } from "../migrations/dry-run.ts";
import type { MigrationStatus } from "../migrations/shard-migrations.ts";
import { endpointStub } from "../model/endpoint-stub.ts";
import { listShards } from "../registry/reader.ts";
import type { MigrationEndpoint } from "../shard/migration-endpoint.ts";

/** Shards one page of a fan-out reaches at most, and at once. */
export const FANOUT_CONCURRENCY = 8;

/** One shard's answer in a fan-out: its value, or the error it answered. */
export type ShardAnswer<T> =
  | ({ key: string; ok: true } & T)
  | { key: string; ok: false; error: { code: string; message: string } };

/** Which shards one page of a fan-out covers: registry keys containing `search`, after `cursor`. */
export interface FanOutRange {
  search: string | null;
  cursor: string | null;
  limit: number;
}

/** One page of a fan-out over the registry. */
export interface FanOutPage<T> {
  shards: ShardAnswer<T>[];
  /** Pass back as `cursor` for the next page of shards; `null` after the last. */
  nextCursor: string | null;
}

/** Runs `task` over `items`, at most `concurrency` at a time, answers in the items' order. */
export async function boundedAll<I, T>(
  items: readonly I[],
  concurrency: number,
  task: (item: I) => Promise<T>,
): Promise<T[]> {
  const results = new Array<T>(items.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) {
      results[index] = await task(items[index] as I);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

function failure(error: SerializedError): { code: string; message: string } {
  return { code: error.code, message: error.message };
}

/** A shard that cannot be reached is an answer of its own, never a failed page. */
async function ask<T>(
  key: string,
  call: () => Promise<Outcome<T>>,
): Promise<ShardAnswer<{ value: T }>> {
  try {
    const outcome = await call();
    return outcome.ok
      ? { key, ok: true, value: outcome.value }
      : { key, ok: false, error: failure(outcome.error) };
  } catch (thrown) {
    return { key, ok: false, error: failure(serializeError(normalizeError(thrown))) };
  }
}

/**
 * Asks one page of the registry's shards (in key order, `limit` of them,
 * after `cursor`) with at most {@link FANOUT_CONCURRENCY} calls in flight.
 * A fan-out over every shard is the caller following `nextCursor` page by
 * page (`svc migrations` does), so no single request grows with the number
 * of shards, and a run stopped halfway resumes from the last cursor.
 * `Endpoint` is the shard's RPC face the call uses (the scheduler's lists
 * and cancels across shards use `ScheduledEndpoint`).
 */
export async function fanOutPage<T, Endpoint = MigrationEndpoint>(
  namespace: DurableObjectNamespace,
  page: FanOutRange,
  call: (shard: Endpoint, key: string) => Promise<Outcome<T>>,
): Promise<FanOutPage<{ value: T }>> {
  const { shards, nextCursor } = await listShards(namespace, {
    search: page.search,
    cursor: page.cursor,
    limit: page.limit,
  });
  const answers = await boundedAll(shards, FANOUT_CONCURRENCY, ({ key }) =>
    ask(key, () => call(endpointStub<Endpoint>(namespace, key), key)),
  );
  return { shards: answers, nextCursor };
}

/** Status of every migration in one page of shards. */
export function statusPage(
  namespace: DurableObjectNamespace,
  page: FanOutRange,
): Promise<FanOutPage<{ value: MigrationStatus[] }>> {
  return fanOutPage(namespace, page, async (shard) => ({
    ok: true,
    value: await shard.migrationStatus(),
  }));
}

/** Starts (or resumes) `name` in one page of shards; each answers its status at once. */
export function runPage(
  namespace: DurableObjectNamespace,
  name: string,
  page: FanOutRange,
): Promise<FanOutPage<{ value: MigrationStatus[] }>> {
  return fanOutPage(namespace, page, (shard, key) => shard.runMigration(name, key));
}

/** Dry-runs `name` in one page of shards: what each would change, with samples. */
export function dryRunPage(
  namespace: DurableObjectNamespace,
  name: string,
  page: FanOutRange & { samples: number },
): Promise<FanOutPage<{ value: DryRunReport }>> {
  return fanOutPage(namespace, page, (shard, key) =>
    shard.dryRunMigration(name, key, page.samples),
  );
}
