import type { CallOrigin } from "../dispatch/dispatch.ts";
import { SvcError } from "../errors/svc-error.ts";
import type { Identity } from "../model/identity.ts";
import { callerOf } from "../observability/caller.ts";
import type { RecordingPlan } from "../observability/plan.ts";
import { clip } from "../observability/record.ts";
import type { ShardRunRecorder } from "../observability/shard-recorder.ts";
import type { AnyProcedure } from "../procedures/procedure.ts";
import { parseJson } from "../values/json-codec.ts";
import { retryDelayMs, SCHEDULER_LIMITS } from "./limits.ts";
import {
  dueJobs,
  earliestDue,
  ensureScheduledTable,
  type JobRow,
  lastStored,
  moveJob,
  SCHEDULED_TABLE,
} from "./table.ts";

/** What running jobs needs from the shard's dispatcher. */
export interface ScheduledDispatch {
  serverProcedure(path: string): AnyProcedure;
  /** Runs an action as an outside call does. */
  run(path: string, procedure: AnyProcedure, args: unknown, origin: CallOrigin): Promise<unknown>;
  /**
   * Runs a mutation whose transaction first calls `claim`; when it answers
   * false the mutation does not run (and its transaction writes nothing).
   */
  runClaimed(
    path: string,
    procedure: AnyProcedure,
    args: unknown,
    origin: CallOrigin,
    claim: () => boolean,
  ): Promise<{ ran: boolean }>;
}

/** Another shard's door for jobs scheduled into it (`options.shardKey`). */
export interface ScheduledInbox {
  acceptScheduled(job: JobRow): Promise<void>;
}

/** What a shard's scheduler needs. */
export interface ShardSchedulerDeps {
  storage: DurableObjectStorage;
  /** The app's key of the shard (`ctx.meta.shardKey` of its jobs); not always its object's name. */
  shardKey(): string;
  dispatch: ScheduledDispatch;
  recorder?: ShardRunRecorder | undefined;
  /** Another shard of this class, or `undefined` where the shard cannot reach its namespace. */
  shard(shardKey: string): ScheduledInbox | undefined;
  /** Asks for the shard's alarm at `at` (only ever moves it earlier). */
  arm(at: number): Promise<void>;
  /** Told of each job another shard hands over, so the pending limit's bound stays an upper bound. */
  accepted(): void;
  /** Told after jobs changed state, so live queries watching them re-run. */
  changed(): void;
}

/** Jobs read per query while draining. */
const BATCH = 100;
/** Jobs run between two yields to the event loop, so calls waiting to be delivered get in. */
const YIELD_EVERY = 20;
/** Longest one alarm drains before it hands the alarm back (and re-arms for the rest). */
const ALARM_BUDGET_MS = 2_000;
/** Finished rows removed per drain. */
const CLEANUP_ROWS = 1_000;

const yieldToCalls = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A failure as the operator sees it (`CODE: message`); a plain error's message is kept, unlike a client's answer. */
function describe(error: unknown): string {
  if (error instanceof SvcError) return clip(`${error.code}: ${error.message}`, 1024);
  const message = error instanceof Error ? error.message : String(error);
  return clip(`INTERNAL: ${message}`, 1024);
}

/**
 * Runs a shard's due jobs from its alarm (one alarm for every job: it is
 * armed for the earliest pending one). A mutation's completion is written
 * in the mutation's own transaction, claimed at its start, so it commits
 * exactly once whatever crashes around it; an action is claimed (`running`,
 * one more attempt) before it runs and is retried with backoff until
 * {@link SCHEDULER_LIMITS}.actionMaxAttempts, then ends `failed`.
 *
 * @example
 * ```ts
 * override async alarm() { await this.#scheduler.alarm(); }
 * ```
 */
export class ShardScheduler {
  readonly #deps: ShardSchedulerDeps;
  #drain: Promise<number> = Promise.resolve(0);

  constructor(deps: ShardSchedulerDeps) {
    this.#deps = deps;
  }

  /**
   * At shard start: an action that was running when the shard stopped used
   * its attempt (it may or may not have finished); it waits for its next
   * one, or ends `failed`. Then the alarm is armed for the earliest job.
   */
  async start(): Promise<void> {
    const { sql } = this.#deps.storage;
    ensureScheduledTable(sql);
    const now = Date.now();
    const interrupted = sql
      .exec<JobRow>(`SELECT * FROM ${SCHEDULED_TABLE} WHERE state = 'running'`)
      .toArray();
    const stopped = describe(new SvcError("UNAVAILABLE", "The shard stopped during this attempt."));
    for (const job of interrupted) this.#failedAttempt(job, stopped, now);
    await this.#armNext();
  }

  /** The alarm's part: drains what is due within a time budget, then re-arms. */
  async alarm(): Promise<void> {
    await this.runDue(Date.now(), Date.now() + ALARM_BUDGET_MS);
  }

  /**
   * Runs every job due by `until` now (at most until `deadline`), earliest
   * first, one drain at a time; answers how many ran. A drain runs the jobs
   * stored before it began, each once (an action's retries due by `until`
   * too): the jobs they schedule wait for the next drain. The alarm calls
   * it; so may a test harness, to run jobs without waiting (`until` in the
   * future runs jobs early, as if the clock had advanced).
   */
  runDue(until: number, deadline = Number.POSITIVE_INFINITY): Promise<number> {
    const next = this.#drain.then(() => this.#runDue(until, deadline));
    this.#drain = next.catch(() => 0);
    return next;
  }

  /**
   * Runs `task` while no drain runs (one that runs finishes first; due jobs
   * wait until `task` settles): a backup holds it so the jobs it counted
   * are the jobs it reads.
   */
  paused<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#drain.then(task);
    this.#drain = run.then(
      () => 0,
      () => 0,
    );
    return run;
  }

  /** Stores a job another shard scheduled into this one; a second delivery of it is ignored. */
  async accept(job: JobRow): Promise<void> {
    const { sql } = this.#deps.storage;
    ensureScheduledTable(sql);
    sql.exec(
      `INSERT OR IGNORE INTO ${SCHEDULED_TABLE} (id, path, kind, args, run_at, state, attempts, identity, service, user_id, target_shard, plan, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, NULL, ?, ?)`,
      job.id,
      job.path,
      job.kind,
      job.args,
      job.run_at,
      job.identity,
      job.service,
      job.user_id,
      job.plan,
      job.created_at,
    );
    this.#deps.accepted();
    this.#deps.changed();
    await this.#deps.arm(job.run_at);
  }

  async #runDue(until: number, deadline: number): Promise<number> {
    const { sql } = this.#deps.storage;
    ensureScheduledTable(sql);
    // Jobs stored meanwhile (ones these jobs schedule) wait for the next drain: a job that
    // schedules itself again, due by `until`, would otherwise keep this one going forever.
    const through = lastStored(sql);
    let ran = 0;
    let spent = false;
    while (!spent) {
      const jobs = dueJobs(sql, until, through, BATCH);
      if (jobs.length === 0) break;
      for (const job of jobs) {
        // A job canceled since the batch was read is not run, nor counted, nor paced.
        if ((await this.#runOne(job)) && ++ran % YIELD_EVERY === 0) {
          this.#deps.changed();
          await yieldToCalls();
        }
        // After every job, not every batch: a batch of slow actions would hold the alarm (and
        // what waits for the drain: deletes, exports, backups) for as long as they all take.
        spent = Date.now() > deadline;
        if (spent) break;
      }
      this.#deps.changed();
    }
    sql.exec(
      `DELETE FROM ${SCHEDULED_TABLE} WHERE id IN (SELECT id FROM ${SCHEDULED_TABLE} WHERE state IN ('succeeded', 'failed', 'canceled') AND finished_at < ? LIMIT ?)`,
      Date.now() - SCHEDULER_LIMITS.keepFinishedMs,
      CLEANUP_ROWS,
    );
    await this.#armNext();
    return ran;
  }

  /** Arms the alarm for the earliest pending job (after jobs were restored from a backup). */
  rearm(): Promise<void> {
    return this.#armNext();
  }

  async #armNext(): Promise<void> {
    const next = earliestDue(this.#deps.storage.sql);
    if (next !== null) await this.#deps.arm(Math.max(next, Date.now()));
  }

  /** Runs (or hands over) one job read as pending; answers false when it was no longer pending. */
  async #runOne(job: JobRow): Promise<boolean> {
    if (job.target_shard !== null) return this.#forward(job, job.target_shard);
    const started = Date.now();
    let procedure: AnyProcedure;
    try {
      procedure = this.#deps.dispatch.serverProcedure(job.path);
      if (procedure.kind !== job.kind) throw new Error(`${job.path} is no longer a ${job.kind}`);
    } catch (error) {
      return this.#finish(job, "pending", "failed", describe(error), started);
    }
    return job.kind === "mutation"
      ? this.#runMutation(job, procedure, started)
      : this.#runAction(job, procedure, started);
  }

  async #runMutation(job: JobRow, procedure: AnyProcedure, started: number): Promise<boolean> {
    const { sql } = this.#deps.storage;
    try {
      const { ran } = await this.#recorded(job, () =>
        this.#deps.dispatch.runClaimed(
          job.path,
          procedure,
          parseJson(job.args),
          this.#origin(job),
          () =>
            moveJob(sql, job.id, "pending", {
              state: "succeeded",
              attempts: job.attempts + 1,
              started_at: started,
              finished_at: Date.now(),
            }),
        ),
      );
      return ran;
    } catch (error) {
      // The mutation's transaction rolled back, claim included: the job is still pending.
      return this.#finish(job, "pending", "failed", describe(error), started);
    }
  }

  #runAction(job: JobRow, procedure: AnyProcedure, started: number): Promise<boolean> {
    return this.#attempt(job, started, () =>
      this.#recorded(job, () =>
        this.#deps.dispatch.run(job.path, procedure, parseJson(job.args), this.#origin(job)),
      ),
    );
  }

  /**
   * Hands a job to its shard. It is claimed first (`running`, one more
   * attempt), as an action is: a cancel while the hand-over is awaited then
   * answers false instead of true for a job the other shard runs anyway. A
   * failed hand-over waits for its next attempt, as an action's does.
   */
  #forward(job: JobRow, shardKey: string): Promise<boolean> {
    return this.#attempt(job, Date.now(), async () => {
      const inbox = this.#deps.shard(shardKey);
      if (inbox === undefined)
        throw new Error("this shard cannot reach other shards (the shard registry is off)");
      await inbox.acceptScheduled({ ...job, target_shard: null });
    });
  }

  /**
   * One attempt of work that has no transaction to share (an action, a
   * hand-over): the job is claimed (`running`, one more attempt, committed)
   * before `work` runs, then ends `succeeded`, or waits for its next attempt
   * when `work` throws. Answers false, running nothing, when the job was no
   * longer pending (canceled since it was read).
   */
  async #attempt(job: JobRow, started: number, work: () => Promise<unknown>): Promise<boolean> {
    const attempts = job.attempts + 1;
    const claimed = { state: "running" as const, attempts, started_at: started };
    if (!moveJob(this.#deps.storage.sql, job.id, "pending", claimed)) return false;
    try {
      await work();
      this.#finish(job, "running", "succeeded", null, started);
    } catch (error) {
      this.#failedAttempt({ ...job, attempts }, describe(error), Date.now());
    }
    return true;
  }

  /** An attempt of a running action failed: it waits for the next one, or ends `failed`. */
  #failedAttempt(job: JobRow, error: string, now: number): void {
    const { sql } = this.#deps.storage;
    if (job.attempts < SCHEDULER_LIMITS.actionMaxAttempts) {
      moveJob(sql, job.id, "running", {
        state: "pending",
        run_at: now + retryDelayMs(job.attempts),
        error,
      });
    } else {
      moveJob(sql, job.id, "running", { state: "failed", error, finished_at: now });
    }
  }

  #finish(
    job: JobRow,
    from: "pending" | "running",
    to: "succeeded" | "failed",
    error: string | null,
    started: number,
  ): boolean {
    // A running action counted its attempt when it was claimed.
    const counted = from === "pending" ? { attempts: job.attempts + 1 } : {};
    return moveJob(this.#deps.storage.sql, job.id, from, {
      state: to,
      ...counted,
      error,
      started_at: started,
      finished_at: Date.now(),
    });
  }

  #origin(job: JobRow): CallOrigin {
    return {
      identity: job.identity === null ? null : (parseJson(job.identity) as Identity),
      service: job.service,
      transport: "scheduler",
      requestId: crypto.randomUUID(),
      shardKey: this.#deps.shardKey(),
    };
  }

  #recorded<T>(job: JobRow, work: () => Promise<T>): Promise<T> {
    const plan = job.plan === null ? null : (JSON.parse(job.plan) as RecordingPlan);
    if (this.#deps.recorder === undefined || plan === null) return work();
    const identity = job.identity === null ? null : (parseJson(job.identity) as Identity);
    const caller =
      job.service === null ? callerOf(identity) : { kind: "service" as const, id: job.service };
    return this.#deps.recorder.run(
      plan,
      { entry: "scheduler", route: job.path, shardKey: this.#deps.shardKey(), caller },
      work,
    );
  }
}
