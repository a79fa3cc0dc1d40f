import type { Outcome } from "../errors/outcome.ts";
import type { JobFilter, JobSelection } from "../scheduler/admin-view.ts";
import type { ScheduledEndpoint } from "../scheduler/endpoint.ts";
import type {
  AcrossShardsCancel,
  AcrossShardsJobPage,
  JobPage,
  ShardFailure,
  ShardJobView,
} from "../scheduler/job-view.ts";

/** Which shards of the registry one page covers: keys containing `search`, after `cursor`, `limit` of them. */
export interface ShardRange {
  search: string | null;
  cursor: string | null;
  limit: number;
}

/** One shard's answer: its value, or the error it answered. */
export type ShardReply<T> =
  | { key: string; ok: true; value: T }
  | { key: string; ok: false; error: { code: string; message: string } };

/**
 * Asks one page of the registry's shards, a bounded number at a time, and
 * answers each shard's reply and the next page's cursor. `createWorker`
 * gives the data admin's registry fan-out (the admin folders do not import
 * each other).
 */
export type ShardFanOut = <T>(
  env: unknown,
  range: ShardRange,
  call: (shard: ScheduledEndpoint) => Promise<Outcome<T>>,
) => Promise<{ shards: ShardReply<T>[]; nextCursor: string | null }>;

function failures<T>(replies: ShardReply<T>[]): ShardFailure[] {
  return replies.flatMap((reply) =>
    reply.ok ? [] : [{ shard: reply.key, code: reply.error.code, message: reply.error.message }],
  );
}

/**
 * The jobs of one page of shards matching `filter`, each shard's first
 * `perShard` by due time, merged by due time (then shard, then id).
 *
 * @example await listAcrossShards(fanOut, env, { state: "failed" }, { search: null, cursor: null, limit: 20 }, 20)
 */
export async function listAcrossShards(
  fanOut: ShardFanOut,
  env: unknown,
  filter: JobFilter,
  range: ShardRange,
  perShard: number,
): Promise<AcrossShardsJobPage> {
  const { shards, nextCursor } = await fanOut<JobPage>(env, range, (shard) =>
    shard.scheduledList(filter, null, perShard),
  );
  const jobs: ShardJobView[] = shards.flatMap((reply) =>
    reply.ok ? reply.value.jobs.map((job) => ({ ...job, shard: reply.key })) : [],
  );
  jobs.sort(
    (a, b) =>
      a.dueAt.localeCompare(b.dueAt) || a.shard.localeCompare(b.shard) || a.id.localeCompare(b.id),
  );
  const more = shards.flatMap((reply) =>
    reply.ok && reply.value.nextCursor !== null ? [reply.key] : [],
  );
  return { jobs, more, errors: failures(shards), nextCursor };
}

/**
 * Cancels the pending jobs `selection` names in one page of shards and
 * answers how many, per shard that canceled any.
 *
 * @example await cancelAcrossShards(fanOut, env, { function: "reminders:send" }, range)
 */
export async function cancelAcrossShards(
  fanOut: ShardFanOut,
  env: unknown,
  selection: JobSelection,
  range: ShardRange,
): Promise<AcrossShardsCancel> {
  const { shards, nextCursor } = await fanOut<number>(env, range, (shard) =>
    shard.scheduledCancel(selection),
  );
  const counted = shards.flatMap((reply) =>
    reply.ok && reply.value > 0 ? [{ shard: reply.key, canceled: reply.value }] : [],
  );
  const canceled = counted.reduce((sum, shard) => sum + shard.canceled, 0);
  return { canceled, shards: counted, errors: failures(shards), nextCursor };
}
