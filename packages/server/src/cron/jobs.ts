import type { ProcedureKind } from "../model/call-meta.ts";
import { isReferenceLike, type RunnableReference } from "../procedures/references.ts";

/** What a cron job runs: a query, mutation or action, public or internal. */
export type CronTarget<Args> = RunnableReference<Exclude<ProcedureKind, "stream">, Args, unknown>;

/** One declared job. */
export interface CronJob {
  /** Unique name; the job runs as the service `cron:<name>` and its failures are logged with it. */
  name: string;
  /** A five-field cron expression, exactly as in `wrangler.jsonc` `triggers.crons`. */
  schedule: string;
  target: CronTarget<unknown>;
  args: unknown;
  /** The shard the job runs in. @default "default" */
  shardKey: string;
}

/** Brands a cron job list. */
export const CRON_JOBS_BRAND: unique symbol = Symbol.for("svc.cronJobs");

/** The app's cron jobs: the default export of `svc/crons.ts`. */
export interface CronJobs {
  readonly [CRON_JOBS_BRAND]: true;
  /**
   * Runs `target(args)` in shard `shardKey` on `schedule`, as the service
   * identity `cron:<name>` (policies see `ctx.auth.kind === "service"`).
   * The schedule must also be listed in `wrangler.jsonc` `triggers.crons`;
   * `svc codegen` checks that.
   */
  add<Args>(
    name: string,
    schedule: string,
    target: CronTarget<Args>,
    args: Args,
    options?: { shardKey?: string },
  ): CronJobs;
  readonly jobs: readonly CronJob[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9:_.-]{0,63}$/;
const FIELD = /^[A-Za-z0-9*,/#?LW-]+$/;

/**
 * Checks the shape of a cron expression: five fields of digits, names and
 * `* , - / L W #` (Cloudflare's syntax). Cloudflare validates the meaning on deploy.
 */
function checkSchedule(name: string, schedule: string): void {
  const fields = typeof schedule === "string" ? schedule.trim().split(/\s+/) : [];
  if (fields.length !== 5 || !fields.every((field) => FIELD.test(field))) {
    throw new Error(
      `svc: cron job ${name} has schedule ${JSON.stringify(schedule)}; expected five fields like "*/5 * * * *"`,
    );
  }
}

/**
 * Starts the app's cron job list. Export it as the default of `svc/crons.ts`;
 * `svc codegen` finds it and `createWorker({ crons })` runs it from the
 * worker's `scheduled` handler.
 *
 * @example
 * ```ts
 * const crons = cronJobs();
 * crons.add("sweep", "* * * * *", internal.maintenance.sweep, {});
 * export default crons;
 * ```
 */
export function cronJobs(): CronJobs {
  const jobs: CronJob[] = [];
  const list: CronJobs = {
    [CRON_JOBS_BRAND]: true,
    add(name, schedule, target, args, options = {}) {
      if (typeof name !== "string" || !NAME.test(name))
        throw new Error(
          `svc: cron job name ${JSON.stringify(name)} must be letters, digits and :_.- (up to 64)`,
        );
      if (jobs.some((job) => job.name === name))
        throw new Error(`svc: cron job ${name} is declared twice`);
      checkSchedule(name, schedule);
      if (!isReferenceLike(target))
        throw new Error(`svc: cron job ${name} must run a procedure reference (internal.x.y)`);
      jobs.push({
        name,
        schedule: schedule.trim().split(/\s+/).join(" "),
        target: target as CronTarget<unknown>,
        args,
        shardKey: options.shardKey ?? "default",
      });
      return list;
    },
    get jobs() {
      return [...jobs];
    },
  };
  return list;
}

/** True for a value built by {@link cronJobs}. */
export function isCronJobs(value: unknown): value is CronJobs {
  return typeof value === "object" && value !== null && CRON_JOBS_BRAND in value;
}
