import { dataAdminRoutes, type RouteAnswer } from "@svc/server/routes/contract";
import type { AdminClient } from "../admin-client.ts";
import { createProgress } from "../progress.ts";
import { type Output, stdout } from "./print-pages.ts";

type StatusPage = RouteAnswer<typeof dataAdminRoutes.routes.listMigrations>;
type RunPage = RouteAnswer<typeof dataAdminRoutes.routes.runMigration>;

/** One migration summed over shards, as `GET /_svc/admin/data/migrations` answers it. */
export type MigrationSummary = StatusPage["migrations"][number];
type ShardStates = MigrationSummary["shards"];
type Counts = MigrationSummary["documents"];
/** What a dry run of one migration counted (in one shard, or summed). */
type DryRunReport = NonNullable<RunPage["shards"][number]["report"]>;

/** Every migration over every shard (or those whose key contains `search`). */
export interface MigrationsOverview {
  migrations: MigrationSummary[];
  shards: number;
  unreachable: StatusPage["unreachable"];
}

/** Shards one request covers (the server's most). */
const SHARDS_PER_REQUEST = 1_000;
const POLL_MS = 500;
const MAX_FAILED_SHOWN = 20;
const number = (n: number) => n.toLocaleString("en-US");

function merge(into: MigrationSummary, page: MigrationSummary): void {
  for (const state of Object.keys(into.shards) as (keyof ShardStates)[])
    into.shards[state] += page.shards[state];
  for (const field of Object.keys(into.documents) as (keyof Counts)[])
    into.documents[field] += page.documents[field];
  into.failedDocuments.push(
    ...page.failedDocuments.slice(0, MAX_FAILED_SHOWN - into.failedDocuments.length),
  );
}

/**
 * Reads `GET data/migrations` page by page (the server covers 1,000 shards
 * per request) and sums each migration over all of them.
 *
 * @example const { migrations } = await migrationsOverview(client, { search: undefined });
 */
export async function migrationsOverview(
  client: AdminClient,
  options: { search?: string | undefined },
): Promise<MigrationsOverview> {
  const byName = new Map<string, MigrationSummary>();
  const overview: MigrationsOverview = { migrations: [], shards: 0, unreachable: [] };
  let cursor: string | undefined;
  do {
    const page = await client.answer(dataAdminRoutes, "listMigrations", {
      query: { search: options.search, cursor, limit: SHARDS_PER_REQUEST },
    });
    overview.shards += page.shards;
    overview.unreachable.push(...page.unreachable);
    for (const summary of page.migrations) {
      const known = byName.get(summary.name);
      if (known === undefined) byName.set(summary.name, structuredClone(summary));
      else merge(known, summary);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  overview.migrations = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  return overview;
}

function printFailures(summary: MigrationSummary, out: Output): void {
  for (const failed of summary.failedDocuments)
    out(`  failed: shard ${failed.shard}, document ${failed.id}: ${failed.message}`);
}

/**
 * `svc migrations status [--search <text>] [--json]`: each migration over
 * every shard the registry knows: shards done / running / stopped / not
 * started, documents migrated, and the documents that failed (shard and id).
 *
 * @example await migrationsStatus(client, { json: false });
 */
export async function migrationsStatus(
  client: AdminClient,
  options: { search?: string | undefined; json: boolean },
  out: Output = stdout,
): Promise<MigrationsOverview> {
  const overview = await migrationsOverview(client, options);
  if (options.json) {
    out(JSON.stringify(overview, null, 2));
    return overview;
  }
  out(
    `${"MIGRATION".padEnd(36)} ${"TABLE".padEnd(16)} ${"DONE".padStart(6)} ${"RUNNING".padStart(8)} ${"STOPPED".padStart(8)} ${"WAITING".padStart(8)} ${"MIGRATED".padStart(10)} ${"FAILED".padStart(7)}`,
  );
  for (const summary of overview.migrations) {
    const { shards, documents } = summary;
    out(
      `${summary.name.padEnd(36)} ${summary.table.padEnd(16)} ${String(shards.done).padStart(6)} ${String(shards.running).padStart(8)} ${String(shards.stopped).padStart(8)} ${String(shards.registered).padStart(8)} ${number(documents.changed + documents.deleted).padStart(10)} ${String(documents.failed).padStart(7)}`,
    );
    printFailures(summary, out);
  }
  for (const { key, error } of overview.unreachable)
    out(`shard ${key} did not answer: ${error.code} ${error.message}`);
  out(`${overview.shards} shard${overview.shards === 1 ? "" : "s"}`);
  return overview;
}

async function eachRunPage(
  client: AdminClient,
  name: string,
  query: Record<string, string | number | undefined>,
  visit: (page: RunPage) => void,
): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await client.answer(dataAdminRoutes, "runMigration", {
      params: { name },
      query: { ...query, cursor, limit: SHARDS_PER_REQUEST },
    });
    visit(page);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/**
 * `svc migrations run <name> --dry-run`: per shard, how many documents a run
 * would change, delete or fail on, with before/after samples; writes
 * nothing. Answers the totals.
 */
export async function migrationsDryRun(
  client: AdminClient,
  name: string,
  options: { search?: string | undefined; json: boolean },
  out: Output = stdout,
): Promise<DryRunReport> {
  const total: DryRunReport = {
    scanned: 0,
    wouldChange: 0,
    wouldDelete: 0,
    unchanged: 0,
    writtenByApp: 0,
    failed: 0,
    errors: [],
    samples: [],
  };
  let shards = 0;
  await eachRunPage(client, name, { dryRun: "true", search: options.search }, (page) => {
    for (const shard of page.shards) {
      shards += 1;
      if (options.json) {
        out(JSON.stringify(shard));
      } else if (shard.error !== null) {
        out(`${shard.key}: ${shard.error.code} ${shard.error.message}`);
      } else if (shard.report !== null) {
        const r = shard.report;
        out(
          `${shard.key}: ${number(r.scanned)} to migrate: ${number(r.wouldChange)} would change, ${number(r.wouldDelete)} deleted, ${number(r.unchanged + r.writtenByApp)} unchanged, ${number(r.failed)} would fail`,
        );
        for (const sample of r.samples) {
          out(`  ${sample.id}`);
          out(`    before ${JSON.stringify(sample.before)}`);
          out(`    after  ${JSON.stringify(sample.after)}`);
        }
        for (const error of r.errors) out(`  fails on ${error.id}: ${error.message}`);
      }
      if (shard.report !== null) {
        for (const field of [
          "scanned",
          "wouldChange",
          "wouldDelete",
          "unchanged",
          "writtenByApp",
          "failed",
        ] as const)
          total[field] += shard.report[field];
      }
    }
  });
  if (!options.json)
    out(
      `dry run of ${name} over ${shards} shard${shards === 1 ? "" : "s"}: ${number(total.wouldChange)} would change, ${number(total.wouldDelete)} would be deleted, ${number(total.failed)} would fail; nothing was written`,
    );
  return total;
}

/**
 * `svc migrations run <name>`: starts the migration in every shard the
 * registry knows (each shard's alarm migrates in batches), then follows
 * `GET migrations` until no shard runs it, with progress on stderr. Answers
 * the final summary; the exit code is 1 when a shard stopped on a document
 * or skipped some (each named with its shard and id).
 */
export async function migrationsRun(
  client: AdminClient,
  name: string,
  options: { search?: string | undefined; pollMs?: number },
  out: Output = stdout,
): Promise<{ summary: MigrationSummary | undefined; ok: boolean }> {
  let started = 0;
  let refused = 0;
  await eachRunPage(client, name, { search: options.search }, (page) => {
    for (const shard of page.shards) {
      if (shard.error === null) started += 1;
      else {
        refused += 1;
        out(`${shard.key}: ${shard.error.code} ${shard.error.message}`);
      }
    }
  });
  out(`${name}: started in ${started} shard${started === 1 ? "" : "s"}`);
  const progress = createProgress(`migration ${name}`, "documents");
  let summary: MigrationSummary | undefined;
  for (;;) {
    const overview = await migrationsOverview(client, options);
    summary = overview.migrations.find((entry) => entry.name === name);
    if (summary === undefined) break;
    progress.update(summary.documents.scanned);
    if (summary.shards.running === 0) break;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? POLL_MS));
  }
  if (summary === undefined) {
    progress.finish("no shard knows it");
    return { summary, ok: refused === 0 };
  }
  const { shards, documents } = summary;
  progress.finish(
    `${shards.done} shard${shards.done === 1 ? "" : "s"} done, ${shards.stopped} stopped: ${number(documents.changed)} changed, ${number(documents.deleted)} deleted, ${number(documents.unchanged + documents.writtenByApp)} unchanged, ${number(documents.failed)} failed`,
  );
  printFailures(summary, out);
  return { summary, ok: refused === 0 && shards.stopped === 0 && shards.withFailures === 0 };
}
