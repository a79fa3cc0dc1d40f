import { D1_BOOKMARK_HEADER } from "./contract/index.ts";

/** What admin handlers query: the D1 binding, or a Sessions API session over it. */
export type AdminDatabase = D1Database | D1DatabaseSession;

/** One admin request's database: `db` for its statements, `bookmark()` for its answer's header. */
export interface AdminReadSession {
  db: AdminDatabase;
  /** The session's bookmark once the request is done; `null` without the Sessions API. */
  bookmark(): Promise<string | null>;
}

/** D1 bookmarks are hex groups joined by dashes; anything else is ignored, not sent to D1. */
const BOOKMARK = /^[0-9a-f]+(-[0-9a-f]+)*$/i;

/**
 * Opens one admin request's D1 session (the Sessions API, D1 read
 * replication): a read (`GET`, `HEAD`) starts at the request's bookmark
 * ({@link D1_BOOKMARK_HEADER}) or, without one, on any replica
 * (`first-unconstrained`); anything else starts on the primary
 * (`first-primary`), where better-auth writes. Within the session D1 keeps
 * reads sequentially consistent, so a replica never serves a page older
 * than what this client saw (read-your-writes across requests, through the
 * bookmark the answer carries). Where the binding has no Sessions API, and
 * on a database without replicas (local D1 and Cloudflare until replication
 * is enabled), every statement reads the one database, as before.
 *
 * @example
 * ```ts
 * const reads = adminReadSession(env.DB, request);
 * const page = await reads.db.prepare("SELECT 1").first();
 * response.headers.set(D1_BOOKMARK_HEADER, (await reads.bookmark()) ?? "");
 * ```
 */
export function adminReadSession(binding: D1Database, request: Request): AdminReadSession {
  if (typeof binding.withSession !== "function") {
    return { db: binding, bookmark: async () => null };
  }
  const write = request.method !== "GET" && request.method !== "HEAD";
  const sent = request.headers.get(D1_BOOKMARK_HEADER) ?? "";
  const start = write
    ? "first-primary"
    : BOOKMARK.test(sent) && sent.length <= 256
      ? sent
      : "first-unconstrained";
  const session = binding.withSession(start);
  return {
    db: session,
    async bookmark() {
      // better-auth's own writes go through the binding, not this session: a read on the
      // primary after them gives a bookmark that includes them.
      // The answer is ready: a failed read here costs the next request its bookmark, not this answer.
      if (write)
        await session
          .prepare("SELECT 1")
          .first()
          .catch(() => null);
      return session.getBookmark();
    },
  };
}
