import { validateArgs } from "../dispatch/dispatch.ts";
import { SvcError } from "../errors/svc-error.ts";
import { refuseOutOfScope } from "../model/api-key.ts";
import type { Identity } from "../model/identity.ts";
import { checkShardKey } from "../model/shard-key.ts";
import type { RecordingPlan } from "../observability/plan.ts";
import type { AnyProcedure } from "../procedures/procedure.ts";
import type { ScheduledJobId, ScheduleOptions, Scheduler } from "../procedures/scheduler.ts";
import { isReservedObjectName } from "../registry/partitions.ts";
import { newId } from "../values/ids.ts";
import { stringifyJson } from "../values/json-codec.ts";
import { limitError, SCHEDULER_LIMITS } from "./limits.ts";
import { countUnfinished, ensureScheduledTable, moveJob, SCHEDULED_TABLE } from "./table.ts";

/** Who schedules: the call whose `ctx.scheduler` this is. The job runs as this caller. */
export interface SchedulingCaller {
  identity: Identity | null;
  service: string | null;
  shardKey: string;
  /** Where the call's record went; the job's runs are recorded there too. */
  plan?: RecordingPlan | undefined;
}

/**
 * An upper bound of a shard's unfinished jobs, kept in memory so the
 * pending limit costs no count per job: every job stored adds one, and the
 * jobs are counted exactly only when the bound reaches the limit (a rolled
 * back mutation or a finished job leaves it high, never low).
 *
 * @example const bound = new PendingBound(); bound.admit(sql);
 */
export class PendingBound {
  #bound: number | undefined;

  /** Counts one more job, refusing it (`RATE_LIMITED`) when the shard is full. */
  admit(sql: SqlStorage): void {
    if (this.#bound === undefined || this.#bound >= SCHEDULER_LIMITS.maxPendingJobs) {
      this.#bound = countUnfinished(sql);
      if (this.#bound >= SCHEDULER_LIMITS.maxPendingJobs)
        throw limitError(
          "pendingJobs",
          "RATE_LIMITED",
          `This shard already has ${SCHEDULER_LIMITS.maxPendingJobs} scheduled jobs waiting.`,
        );
    }
    this.#bound++;
  }

  /** Forgets the bound after jobs were stored in bulk (a restore): the next job counts them. */
  forget(): void {
    this.#bound = undefined;
  }

  /** Counts a job stored without the limit (one handed over by another shard: it is never refused). */
  note(): void {
    if (this.#bound !== undefined) this.#bound++;
  }
}

/** What scheduling needs from its shard. */
export interface ScheduleDeps {
  sql: SqlStorage;
  /** The shard's {@link PendingBound}. */
  pending: PendingBound;
  /** The registry path and procedure of a reference (the dispatcher's `ctx.run*` resolution). */
  resolve(ref: unknown): { path: string; procedure: AnyProcedure };
  /** Asks for the shard's alarm at `at` (only ever moves it earlier). */
  arm(at: number): Promise<void>;
  /** Told after a job was written outside a mutation (an action's), so watchers of jobs re-run. */
  changed(): void;
}

const encoder = new TextEncoder();

function dueTime(at: number, now: number): number {
  if (typeof at !== "number" || !Number.isFinite(at))
    throw new SvcError("BAD_REQUEST", "A scheduled time must be a finite number of milliseconds.", {
      data: { reason: "delayMs" },
    });
  if (at - now > SCHEDULER_LIMITS.maxDelayMs)
    throw limitError(
      "delayMs",
      "BAD_REQUEST",
      `A job may be scheduled at most ${SCHEDULER_LIMITS.maxDelayMs} ms ahead.`,
    );
  return Math.max(Math.floor(at), now);
}

function targetShard(options: ScheduleOptions | undefined, own: string): string | null {
  const key = options?.shardKey;
  if (key === undefined || key === own) return null;
  if (typeof key !== "string" || isReservedObjectName(checkShardKey(key)))
    throw new SvcError("BAD_REQUEST", "The scheduled job's shard key is not a shard key.");
  return key;
}

/**
 * Builds `ctx.scheduler` for one call. Each job is one row of
 * `_svc_scheduled`, written through the shard's SQLite: inside a mutation
 * that is its transaction, so a rollback takes the job with it. Arguments
 * are validated against the target's `.input()` and bounded now, an API
 * key's scopes must cover a public target, and the pending limit is
 * kept by the shard's {@link PendingBound}.
 *
 * @example
 * ```ts
 * ctx.scheduler = createScheduler(deps, { identity, service, shardKey }, access);
 * ```
 */
export function createScheduler(
  deps: ScheduleDeps,
  caller: SchedulingCaller,
  access?: { readonly writes: Set<string> },
): Scheduler {
  const { sql } = deps;
  // Inside a mutation, its commit tells watchers; an action's write is committed at once.
  const wrote = () => (access === undefined ? deps.changed() : access.writes.add(SCHEDULED_TABLE));
  const schedule = async (
    at: number,
    ref: unknown,
    rawArgs: unknown,
    options: ScheduleOptions | undefined,
  ): Promise<ScheduledJobId> => {
    const now = Date.now();
    const runAt = dueTime(at, now);
    const { path, procedure } = deps.resolve(ref);
    if (procedure.kind !== "mutation" && procedure.kind !== "action")
      throw new Error(`svc: ctx.scheduler cannot run ${path}, which is a ${procedure.kind}`);
    if (procedure.visibility === "public")
      refuseOutOfScope(caller.identity?.apiKey, { path, kind: procedure.kind });
    const target = targetShard(options, caller.shardKey);
    const args = stringifyJson(validateArgs(procedure.args, rawArgs));
    const bytes = encoder.encode(args).byteLength;
    if (bytes > SCHEDULER_LIMITS.maxArgsBytes)
      throw limitError(
        "argsBytes",
        "PAYLOAD_TOO_LARGE",
        `The scheduled job's arguments are ${bytes} bytes; at most ${SCHEDULER_LIMITS.maxArgsBytes} are allowed.`,
      );
    deps.pending.admit(sql);
    const id = newId(SCHEDULED_TABLE) as ScheduledJobId;
    sql.exec(
      `INSERT INTO ${SCHEDULED_TABLE} (id, path, kind, args, run_at, state, attempts, identity, service, user_id, target_shard, plan, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?, ?, ?)`,
      id,
      path,
      procedure.kind,
      args,
      runAt,
      caller.identity === null ? null : stringifyJson(caller.identity),
      caller.service,
      caller.service === null ? (caller.identity?.userId ?? null) : null,
      target,
      caller.plan === undefined ? null : JSON.stringify(caller.plan),
      now,
    );
    wrote();
    await deps.arm(runAt);
    return id;
  };
  type Rest = [args?: unknown, options?: ScheduleOptions];
  const scheduler = {
    runAfter: async (delayMs: number, ref: unknown, ...[args, options]: Rest) => {
      if (typeof delayMs !== "number" || !(delayMs >= 0))
        throw new SvcError("BAD_REQUEST", "A job's delay must be 0 or more milliseconds.", {
          data: { reason: "delayMs" },
        });
      return schedule(Date.now() + delayMs, ref, args, options);
    },
    runAt: (timestamp: number | Date, ref: unknown, ...[args, options]: Rest) =>
      schedule(timestamp instanceof Date ? timestamp.getTime() : timestamp, ref, args, options),
    cancel: async (id: ScheduledJobId) => {
      ensureScheduledTable(sql);
      const now = Date.now();
      const canceled = moveJob(sql, String(id), "pending", { state: "canceled", finished_at: now });
      if (canceled) wrote();
      return canceled;
    },
  };
  // The typed overloads live on `Scheduler`; arguments are checked at run time above.
  return scheduler as Scheduler;
}
