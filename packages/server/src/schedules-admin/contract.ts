// The modules themselves, not the contract's index: the index re-exports this group.
import { integer, oneOf, text } from "../routes/contract/fields.ts";
import { route, routeGroup, typedAnswer } from "../routes/contract/route.ts";
import type { JobPage } from "../scheduler/job-view.ts";
import { JOB_STATES } from "../scheduler/job-view.ts";
import { v } from "../values/index.ts";

/** Jobs per page when `limit` is not given. */
export const DEFAULT_JOB_PAGE = 50;
/** The most jobs one page holds. */
export const MAX_JOB_PAGE = 200;
/** The most ids one cancel names. */
export const MAX_CANCEL_IDS = 1_000;

/**
 * The scheduled jobs' admin routes (`/_svc/admin/schedules/`, docs/scheduler.md
 * and docs/admin-api.md), declared once each: `createWorker` serves them,
 * and the docs table, the dashboard's manifest and the CLI derive from them.
 * `:key` is a URI-encoded shard key; a shard with no jobs answers an empty page.
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
        state: v.optional(oneOf(JOB_STATES)),
        function: v.optional(text(200)),
        user: v.optional(text(200)),
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
        "Only jobs still pending are canceled (a running action finishes its attempt). A body naming no job is refused.",
      body: v.object({
        ids: v.optional(v.array(text(100))),
        function: v.optional(text(200)),
        user: v.optional(text(200)),
        all: v.optional(v.boolean()),
      }),
      answer: v.object({ canceled: v.number() }),
      errors: ["BAD_REQUEST"],
    }),
  },
});
