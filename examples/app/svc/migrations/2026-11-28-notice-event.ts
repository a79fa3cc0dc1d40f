import { defineMigration } from "@svc/server";

/**
 * Notices now record the event they announce (`event`), so a feed can tell
 * kinds apart without matching texts. Notices stored before have only their
 * text; each of them announced a posted message, the only event there was.
 * Until a shard's run reaches a notice, reads show it migrated.
 */
export default defineMigration({
  table: "notices",
  migrateOne: (_ctx, doc) => (doc.event === undefined ? { event: "message_posted" } : undefined),
});
