// The modules themselves, not the contract's index: the index re-exports this group.
import { integer, oneOf, text } from "../routes/contract/fields.ts";
import { route, routeGroup, typedAnswer } from "../routes/contract/route.ts";
import type { AcrossShardsCancel, AcrossShardsJobPage, JobPage } from "../scheduler/job-view.ts";
import { JOB_STATES } from "../scheduler/job-view.ts";
import { v } from "../values/index.ts";

/** Jobs per page when `limit` is not given. */
export const DEFAULT_JOB_PAGE = 50;
/** The most jobs one page holds. */
export const MAX_JOB_PAGE = 200;
/** The most ids one cancel names. */
export const MAX_CANCEL_IDS = 1_000;
/** Shards one page across shards asks when `shards` is not given. */
export const DEFAULT_SHARDS_PAGE = 20;
/** The most shards one page across shards asks (8 at a time). */
export const MAX_SHARDS_PAGE = 50;
/** Jobs each shard contributes to a page across shards when `limit` is not given. */
export const DEFAULT_JOBS_PER_SHARD = 20;

/** What a list filters jobs by. */
const jobFilters = {
  state: v.optional(oneOf(JOB_STATES)),
  function: v.optional(text(200)),
  user: v.optional(text(200)),
};

/** What a cancel selects jobs by, besides ids. */
const cancelFilters = {
  function: v.optional(text(200)),
  user: v.optional(text(200)),
  all: v.optional(v.boolean()),
};

/** Which shards of the registry one page across shards covers. */
const shardRange = {
  search: v.optional(text(200)),
  cursor: v.optional(text(600)),
  shards: v.optional(integer(1, MAX_SHARDS_PAGE)),
};

/**
 * The scheduled jobs' admin routes (`/_svc/admin/schedules/`, docs/scheduler.md
 * and docs/admin-api.md), declared once each: `createWorker` serves them,
 * and the docs table, the dashboard's manifest and the CLI derive from them.
 * `:key` is a URI-encoded shard key; a shard with no jobs answers an empty page.
 * `jobs` and `jobs/cancel` reach every shard the registry knows, a page of shards per call.
 */
export const schedulesAdminRoutes = routeGroup({
  prefix: "/_svc/admin/schedules/",
  tag: "schedules",
  routes: {
    listSchedules: route({
      method: "GET",
      path: "shards/:key",
      summary: "A shard's scheduled jobs, by due time",
      description:
        "Filters: `state` (pending, running, succeeded, failed, canceled), `function` (its path), `user` (the id of the user who scheduled it). Finished jobs stay listed 7 days. Paged by `cursor`.",
      query: v.object({
        ...jobFilters,
        cursor: v.optional(text(300)),
        limit: v.optional(integer(1, MAX_JOB_PAGE)),
      }),
      answer: typedAnswer<JobPage>("A page of jobs and the cursor of the next (null at the end)"),
      errors: ["BAD_REQUEST"],
    }),
    cancelSchedules: route({
      method: "POST",
      path: "shards/:key/cancel",
      summary: "Cancel a shard's pending jobs: by id, by function and user, or all",
      description:
        "Only jobs still pending are canceled (a running action finishes its attempt). A body naming no job is refused. Recorded as `schedule.cancel` in the audit trail (the shard, the selection, how many), refused attempts too.",
      body: v.object({
        ids: v.optional(v.array(text(100))),
        ...cancelFilters,
      }),
      answer: v.object({ canceled: v.number() }),
      errors: ["BAD_REQUEST"],
      audit: "schedule.cancel",
    }),
    listAllSchedules: route({
      method: "GET",
      path: "jobs",
      summary: "Scheduled jobs across the registry's shards, one page of shards at a time",
      description:
        "Asks one page of the registry's shards (key order; `search` keeps keys containing it; `shards` of them, 8 at a time) for their first `limit` jobs matching the filters, and answers them by due time with each job's `shard`. `more` names shards holding more than shown; a shard that fails is reported in `errors`, never skipped. Follow `nextCursor` for the next page of shards.",
      query: v.object({
        ...jobFilters,
        ...shardRange,
        limit: v.optional(integer(1, MAX_JOB_PAGE)),
      }),
      answer: typedAnswer<AcrossShardsJobPage>(
        "The jobs of one page of shards, the shards with more, the shards that failed, and the next page's cursor",
      ),
      errors: ["BAD_REQUEST"],
    }),
    cancelAllSchedules: route({
      method: "POST",
      path: "jobs/cancel",
      summary: "Cancel the pending jobs a filter selects, across one page of shards",
      description:
        "By function and user, or `all`, in one page of the registry's shards (as `GET jobs` pages them); follow `nextCursor` to cancel in every shard. A body naming no job is refused. Recorded as `schedule.cancel` (target `*`) with the selection and the count per shard.",
      body: v.object({
        ...cancelFilters,
        ...shardRange,
      }),
      answer: typedAnswer<AcrossShardsCancel>(
        "How many were canceled, per shard; the shards that failed; the next page's cursor",
      ),
      errors: ["BAD_REQUEST"],
      audit: "schedule.cancel",
    }),
  },
});
