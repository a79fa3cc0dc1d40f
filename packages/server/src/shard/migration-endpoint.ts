import type { Outcome } from "../errors/outcome.ts";
import type { DryRunReport } from "../migrations/dry-run.ts";
import type { MigrationStatus } from "../migrations/shard-migrations.ts";

/**
 * What the worker's `/_svc/admin/data/migrations` routes ask a shard
 * (Durable Object RPC). Only the worker holds stubs, so no client reaches
 * these.
 */
export interface MigrationEndpoint {
  /** Every migration this shard knows, with its state, cursor and counts. */
  migrationStatus(): Promise<MigrationStatus[]>;
  /** Starts or resumes a migration; the shard's alarm runs it batch by batch. */
  runMigration(name: string, shardKey: string): Promise<Outcome<MigrationStatus[]>>;
  /** Counts what running it would change now, with before/after samples; writes nothing. */
  dryRunMigration(name: string, shardKey: string, samples: number): Promise<Outcome<DryRunReport>>;
}
