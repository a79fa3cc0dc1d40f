import { armAlarm } from "../durable/alarms.ts";
import type { BackupRun, ShardDataEndpoint } from "./data-endpoint.ts";
import type { RegistryDirectory } from "./directory.ts";

/** Shards one registry partition backs up at once (16 partitions: 64 in all). */
export const BACKUP_CONCURRENCY = 4;

interface RunRow extends Record<string, SqlStorageValue> {
  id: string;
  bucket: string;
  keep: number;
  /** 1: the run backs up the files' bytes too. */
  files: number;
  after: string;
  done: number;
  failed: number;
  started_at: number;
}

/**
 * A scheduled backup run inside one registry partition: its shards, in key
 * order, {@link BACKUP_CONCURRENCY} at a time, one step per alarm. Progress
 * (the last key done) is stored after every step, so an evicted or crashed
 * partition resumes where it stopped; a failed shard is logged and counted,
 * and the run goes on. Spreading the run over the partitions keeps each
 * step small however many shards exist.
 */
export class BackupRunner {
  readonly #storage: DurableObjectStorage;
  readonly #directory: RegistryDirectory;
  readonly #shard: (key: string) => ShardDataEndpoint;

  constructor(
    storage: DurableObjectStorage,
    directory: RegistryDirectory,
    shard: (key: string) => ShardDataEndpoint,
  ) {
    this.#storage = storage;
    this.#directory = directory;
    this.#shard = shard;
    storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS _svc_backup_run (id TEXT PRIMARY KEY, bucket TEXT NOT NULL, keep INTEGER NOT NULL, " +
        "after TEXT NOT NULL, done INTEGER NOT NULL, failed INTEGER NOT NULL, started_at REAL NOT NULL, " +
        "files INTEGER NOT NULL DEFAULT 0)",
    );
    // A partition that kept a run from before `files` existed gets the column.
    const columns = storage.sql.exec<{ name: string }>("PRAGMA table_info(_svc_backup_run)");
    if (!columns.toArray().some((column) => column.name === "files"))
      storage.sql.exec("ALTER TABLE _svc_backup_run ADD COLUMN files INTEGER NOT NULL DEFAULT 0");
  }

  /** Starts `run` unless one is still going (that one finishes first; this one is skipped and logged). */
  async start(run: BackupRun): Promise<void> {
    const current = this.#current();
    if (current !== undefined) {
      if (current.id !== run.id) {
        console.error(
          `svc: backup run ${run.id} skipped: run ${current.id} has not finished (${current.done} shards done)`,
        );
      }
      return;
    }
    this.#storage.sql.exec(
      "INSERT INTO _svc_backup_run (id, bucket, keep, after, done, failed, started_at, files) VALUES (?, ?, ?, '', 0, 0, ?, ?)",
      run.id,
      run.bucket,
      run.keep,
      Date.now(),
      run.files === true ? 1 : 0,
    );
    await armAlarm(this.#storage, Date.now());
  }

  /** One step of the running backup run, if any. */
  async alarm(): Promise<void> {
    const run = this.#current();
    if (run === undefined) return;
    const { entries, more } = this.#directory.list({
      after: run.after,
      search: null,
      limit: BACKUP_CONCURRENCY,
    });
    const results = await Promise.all(
      entries.map(async ({ key }) => {
        const result = await this.#shard(key)
          .backupTo({ bucket: run.bucket, keep: run.keep, files: run.files === 1 })
          .catch((error: unknown) => ({ ok: false as const, error }));
        if (!result.ok)
          console.error(`svc: backup of shard ${JSON.stringify(key)} failed`, result.error);
        return result.ok;
      }),
    );
    const done = run.done + results.filter(Boolean).length;
    const failed = run.failed + results.filter((ok) => !ok).length;
    if (!more) {
      this.#storage.sql.exec("DELETE FROM _svc_backup_run WHERE id = ?", run.id);
      if (done + failed > 0) {
        const ms = Date.now() - run.started_at;
        console.log(JSON.stringify({ svc: "backup-run", id: run.id, done, failed, ms }));
      }
      return;
    }
    this.#storage.sql.exec(
      "UPDATE _svc_backup_run SET after = ?, done = ?, failed = ? WHERE id = ?",
      entries.at(-1)!.key,
      done,
      failed,
      run.id,
    );
    await armAlarm(this.#storage, Date.now());
  }

  #current(): RunRow | undefined {
    return this.#storage.sql.exec<RunRow>("SELECT * FROM _svc_backup_run LIMIT 1").toArray()[0];
  }
}
