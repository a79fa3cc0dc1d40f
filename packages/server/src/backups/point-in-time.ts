import { SvcError } from "../errors/svc-error.ts";

/**
 * Finds the Durable Objects SQLite bookmark for `at` and arms it for the next
 * start of the object (Cloudflare keeps 30 days of history). The caller then
 * restarts the object. Where the runtime has no point-in-time recovery (local
 * workerd / Miniflare today), `NOT_IMPLEMENTED`: nothing was changed.
 *
 * @example const bookmark = await armPointInTimeRestore(ctx.storage, Date.parse("2026-11-30T10:00:00Z"));
 */
export async function armPointInTimeRestore(
  storage: DurableObjectStorage,
  at: number,
): Promise<string> {
  let bookmark: string;
  try {
    bookmark = await storage.getBookmarkForTime(at);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/point-in-time/i.test(message)) {
      throw new SvcError(
        "NOT_IMPLEMENTED",
        "Point-in-time restore needs Durable Objects point-in-time recovery, which this runtime does not have (local workerd and Miniflare have none; Cloudflare keeps 30 days). Restore a backup instead.",
      );
    }
    throw new SvcError(
      "BAD_REQUEST",
      "No point in time to restore at that moment (Cloudflare keeps the last 30 days).",
      { cause: error },
    );
  }
  await storage.onNextSessionRestoreBookmark(bookmark);
  return bookmark;
}
