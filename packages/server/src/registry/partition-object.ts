import { BackupRunner } from "./backup-run.ts";
import type { BackupRun, RegistryEndpoint, ShardDataEndpoint } from "./data-endpoint.ts";
import { type DirectoryPage, RegistryDirectory, type ShardEntry } from "./directory.ts";
import type { ShardReport } from "./report.ts";

/**
 * What a shard-class object named as a registry partition does instead of
 * being a shard: it keeps its part of the registry and runs its part of each
 * scheduled backup. It never applies the app's schema or reports itself.
 */
export class RegistryPartition implements RegistryEndpoint {
  readonly #directory: RegistryDirectory;
  readonly #runner: BackupRunner;

  constructor(storage: DurableObjectStorage, shard: (key: string) => ShardDataEndpoint) {
    this.#directory = new RegistryDirectory(storage.sql);
    this.#runner = new BackupRunner(storage, this.#directory, shard);
  }

  async registryPut(report: ShardReport): Promise<void> {
    this.#directory.put(report);
  }

  async registryGet(key: string): Promise<ShardEntry | null> {
    return this.#directory.get(key);
  }

  async registryList(options: {
    after: string;
    search: string | null;
    limit: number;
  }): Promise<DirectoryPage> {
    return this.#directory.list(options);
  }

  async registryRemove(key: string, deletedAt: number): Promise<boolean> {
    return this.#directory.remove(key, deletedAt);
  }

  async backupRunStart(run: BackupRun): Promise<void> {
    await this.#runner.start(run);
  }

  /** The object's alarm fired: the next step of a backup run, if one is going. */
  alarm(): Promise<void> {
    return this.#runner.alarm();
  }
}
