import type { DataAuditSink } from "../model/data-audit.ts";
import type { StudioDeps } from "./studio/serve.ts";

/** Scheduled backups (`createWorker({ backups })`). */
export interface BackupsOptions {
  /** Name of the R2 bucket binding backups go to (`r2_buckets` in wrangler.jsonc). */
  bucket: string;
  /** The cron expression that backs up every shard; list it under `triggers.crons` too. */
  schedule: string;
  /** Backups kept per shard; older ones are deleted after each new one. @default 7 */
  keep?: number;
  /**
   * Scheduled backups also carry the bytes of each shard's files (as
   * `?files=true` / `svc backup --files` do for one taken now), not only
   * their metadata (docs/storage.md "Backups"). @default false
   */
  files?: boolean;
}

/** What every data route shares, fixed when `createWorker` is called. */
export interface DataAdminDeps {
  /** The shard namespace of a request's `env`. */
  namespace(env: unknown): DurableObjectNamespace;
  backups: Required<BackupsOptions> | undefined;
  audit: DataAuditSink;
  /** The data studio's own needs (its routes live under the same prefix). */
  studio: StudioDeps;
}

/** The context each data route's handler gets. */
export interface DataContext {
  env: unknown;
  /** The name of the admin token used. */
  operator: string;
  deps: DataAdminDeps;
}

/** The audit record of one data action; its handler says what happened in `detail`. */
export interface DataAuditRecord {
  operator: string;
  action: string;
  /** The shard key of the path, as given (checked by the handler). */
  targetId: string;
  detail: string | null;
  deps: DataAdminDeps;
}
