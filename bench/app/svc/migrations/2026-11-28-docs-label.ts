import { defineMigration } from "@svc/server";

/**
 * The migration the bench measures: documents stored as `{ n, body }` gain
 * `label` and `migrated`. Old documents are written around the database API
 * by `src/data-bench.ts`, as the code before the migration would have.
 */
export default defineMigration({
  table: "docs",
  migrateOne: (_ctx, doc) => ({ label: `label-${Number(doc.n) % 1000}`, migrated: 1 }),
});
