import type { NumberedLine } from "../backups/lines.ts";
import type { BackupInfo } from "../backups/r2.ts";
import type { Outcome } from "../errors/outcome.ts";
import type { DirectoryPage, ShardEntry } from "./directory.ts";
import type { ShardReport } from "./report.ts";

/** What an import or restore put into a shard. */
export interface RestoreResult {
  documents: number;
  tables: Record<string, number>;
}

/** Where scheduled backups go. */
export interface BackupTarget {
  /** Name of the R2 bucket binding. */
  bucket: string;
  /** Backups kept per shard (older ones are deleted after each backup). */
  keep: number;
  /** Also the bytes of the shard's files, not only their metadata (docs/storage.md). */
  files?: boolean;
}

/**
 * The data-lifecycle methods of a shard Durable Object, for the worker's
 * `/_svc/admin/data/*` routes and scheduled backups. Only the worker (and the
 * shard class itself) holds stubs, so no client reaches these.
 */
export interface ShardDataEndpoint {
  /** A consistent export (writes wait until it is read): NDJSON bytes. */
  exportData(): Promise<Outcome<ReadableStream<Uint8Array>>>;
  /** Starts an import into this (empty) shard; answers the import's id. */
  importBegin(): Promise<Outcome<string>>;
  importLines(id: string, lines: NumberedLine[]): Promise<Outcome<null>>;
  importCommit(id: string): Promise<Outcome<RestoreResult>>;
  importAbort(id: string): Promise<void>;
  /** Deletes every document and svc record of the shard; answers the count and the shard's time of deletion. */
  deleteData(): Promise<Outcome<{ documents: number; deletedAt: number }>>;
  /** Backs the shard up into the bucket and prunes its older backups. */
  backupTo(target: BackupTarget): Promise<Outcome<BackupInfo>>;
  /** Restores a backup from the bucket into this (empty) shard. */
  restoreFrom(bucket: string, backup: string): Promise<Outcome<RestoreResult>>;
  /** Arms a point-in-time restore and restarts the shard. */
  rewind(at: number): Promise<Outcome<{ bookmark: string }>>;
  /** Owes the registry a report now (after a point-in-time restore). */
  requestReport(): Promise<void>;
}

/** A scheduled backup run, as the worker starts it in each registry partition. */
export interface BackupRun extends BackupTarget {
  /** Names the run (the cron's scheduled time); a partition runs one at a time. */
  id: string;
}

/** The methods of a registry partition (a shard-class object under a reserved name). */
export interface RegistryEndpoint {
  registryPut(report: ShardReport): Promise<void>;
  registryGet(key: string): Promise<ShardEntry | null>;
  registryList(options: {
    after: string;
    search: string | null;
    limit: number;
  }): Promise<DirectoryPage>;
  registryRemove(key: string, deletedAt: number): Promise<boolean>;
  /** Starts backing up every shard of the partition (unless a run is still going). */
  backupRunStart(run: BackupRun): Promise<void>;
}
