import { SvcError } from "../errors/svc-error.ts";
import type { DryRunReport } from "../migrations/dry-run.ts";
import type { MigrationStatus } from "../migrations/shard-migrations.ts";
import type { RouteHandler } from "../routes/implement.ts";
import type { Infer } from "../values/validator.ts";
import type { dataAdminRoutes } from "./contract.ts";
import { dryRunPage, runPage, type ShardAnswer, statusPage } from "./migration-fanout.ts";
import type { migrationStatusAnswer, shardMigration } from "./migration-shapes.ts";
import type { DataAuditRecord, DataContext } from "./options.ts";

type Routes = typeof dataAdminRoutes.routes;
type Handler<Name extends keyof Routes> = RouteHandler<Routes[Name], DataContext, DataAuditRecord>;
type Summary = Infer<typeof migrationStatusAnswer>["migrations"][number];

/** Shards one request covers without `limit`. */
export const DEFAULT_MIGRATION_SHARDS = 200;
/** Before/after samples per shard of a dry run without `samples`. */
export const DEFAULT_DRY_RUN_SAMPLES = 3;
const MAX_FAILED_LISTED = 20;
const MAX_NAME_LENGTH = 200;

const isoOrNull = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** One shard's record as the admin API shows it: an allow-list of its fields. */
function shardMigrationOf(status: MigrationStatus): Infer<typeof shardMigration> {
  return {
    name: status.name,
    table: status.table,
    state: status.state,
    scanned: status.scanned,
    changed: status.changed,
    deleted: status.deleted,
    unchanged: status.unchanged,
    writtenByApp: status.writtenByApp,
    failed: status.failed,
    error: status.error === null ? null : { id: status.error.id, message: status.error.message },
    failedDocuments: status.failedDocuments.map(({ id, message }) => ({ id, message })),
    startedAt: isoOrNull(status.startedAt),
    finishedAt: isoOrNull(status.finishedAt),
    declared: status.declared,
  };
}

function emptySummary(name: string, table: string): Summary {
  return {
    name,
    table,
    shards: { registered: 0, running: 0, stopped: 0, done: 0, withFailures: 0 },
    documents: { scanned: 0, changed: 0, deleted: 0, unchanged: 0, writtenByApp: 0, failed: 0 },
    failedDocuments: [],
  };
}

/** Adds one shard's record of a migration to its summary. */
function addShard(summary: Summary, key: string, status: MigrationStatus): void {
  summary.shards[status.state] += 1;
  if (status.failed > 0 || status.error !== null) summary.shards.withFailures += 1;
  for (const field of Object.keys(summary.documents) as (keyof Summary["documents"])[]) {
    summary.documents[field] += status[field];
  }
  // The document that stopped a run comes first; skipped ones after it.
  const failures = status.failedDocuments.filter(({ id }) => id !== status.error?.id);
  if (status.error !== null) failures.unshift(status.error);
  for (const { id, message } of failures) {
    if (summary.failedDocuments.length < MAX_FAILED_LISTED)
      summary.failedDocuments.push({ shard: key, id, message });
  }
}

const errorOf = <T>(answer: ShardAnswer<T>) =>
  answer.ok ? null : { code: answer.error.code, message: answer.error.message };

/**
 * `GET migrations?search=&name=&cursor=&limit=`: every migration the covered shards know
 * (the registry's shards in key order, `limit` of them, asked 8 at a time),
 * summed over those shards; with `name`, also that migration's record in
 * each of them (`byShard`). Follow `nextCursor` to cover the rest.
 */
export const listMigrationsHandler: Handler<"listMigrations"> = async ({ query, ctx }) => {
  const page = await statusPage(ctx.deps.namespace(ctx.env), {
    search: query.search ?? null,
    cursor: query.cursor ?? null,
    limit: query.limit ?? DEFAULT_MIGRATION_SHARDS,
  });
  const summaries = new Map<string, Summary>();
  const unreachable: { key: string; error: { code: string; message: string } }[] = [];
  const byShard: { key: string; status: Infer<typeof shardMigration> }[] = [];
  for (const answer of page.shards) {
    if (!answer.ok) {
      unreachable.push({ key: answer.key, error: answer.error });
      continue;
    }
    for (const status of answer.value) {
      if (status.name === query.name)
        byShard.push({ key: answer.key, status: shardMigrationOf(status) });
      let summary = summaries.get(status.name);
      if (summary === undefined) {
        summary = emptySummary(status.name, status.table);
        summaries.set(status.name, summary);
      }
      addShard(summary, answer.key, status);
    }
  }
  return {
    migrations: [...summaries.values()].sort((a, b) => (a.name < b.name ? -1 : 1)),
    shards: page.shards.length,
    unreachable,
    byShard,
    nextCursor: page.nextCursor,
  };
};

/** Every shard answered that it has no such migration: the app does not declare it. */
function refuseUnknown(name: string, answers: readonly ShardAnswer<unknown>[]): void {
  if (
    answers.length > 0 &&
    answers.every((answer) => !answer.ok && answer.error.code === "NOT_FOUND")
  )
    throw new SvcError("NOT_FOUND", `No migration named ${JSON.stringify(name)}.`);
}

function dryRunDetail(reports: readonly DryRunReport[], shards: number): string {
  const sum = (field: "wouldChange" | "wouldDelete" | "failed") =>
    reports.reduce((total, report) => total + report[field], 0);
  return `dry run over ${shards} shards: ${sum("wouldChange")} would change, ${sum("wouldDelete")} would be deleted, ${sum("failed")} would fail`;
}

/**
 * `POST migrations/:name/run?dryRun=&samples=&search=&cursor=&limit=`: starts (or
 * resumes) the migration in each covered shard, whose alarm then runs it
 * batch by batch (`GET migrations` shows the progress); with `dryRun=true`,
 * each shard counts what a run would change instead, with before/after
 * samples, writing nothing. Follow `nextCursor` to cover every shard.
 */
export const runMigrationHandler: Handler<"runMigration"> = async ({
  params,
  query,
  ctx,
  audit,
}) => {
  const { name } = params;
  if (name.length === 0 || name.length > MAX_NAME_LENGTH)
    throw new SvcError("BAD_REQUEST", `A migration name has 1 to ${MAX_NAME_LENGTH} characters.`);
  const namespace = ctx.deps.namespace(ctx.env);
  const range = {
    search: query.search ?? null,
    cursor: query.cursor ?? null,
    limit: query.limit ?? DEFAULT_MIGRATION_SHARDS,
  };
  if (query.dryRun === true) {
    const samples = query.samples ?? DEFAULT_DRY_RUN_SAMPLES;
    const page = await dryRunPage(namespace, name, { ...range, samples });
    refuseUnknown(name, page.shards);
    const reports = page.shards.flatMap((answer) => (answer.ok ? [answer.value] : []));
    audit.detail = dryRunDetail(reports, page.shards.length);
    return {
      name,
      dryRun: true,
      shards: page.shards.map((answer) => ({
        key: answer.key,
        error: errorOf(answer),
        status: null,
        report: answer.ok ? answer.value : null,
      })),
      nextCursor: page.nextCursor,
    };
  }
  const page = await runPage(namespace, name, range);
  refuseUnknown(name, page.shards);
  const started = page.shards.filter((answer) => answer.ok).length;
  audit.detail = `started in ${started} of ${page.shards.length} shards`;
  return {
    name,
    dryRun: false,
    shards: page.shards.map((answer) => {
      const status = answer.ok ? answer.value.find((entry) => entry.name === name) : undefined;
      return {
        key: answer.key,
        error: errorOf(answer),
        status: status === undefined ? null : shardMigrationOf(status),
        report: null,
      };
    }),
    nextCursor: page.nextCursor,
  };
};
