import type { DeferredIndex } from "../db/deferred-index.ts";
import { armAlarm } from "../durable/alarms.ts";

/**
 * Builds, from the shard's alarm, the indexes `applySchema` deferred because
 * their table was too big to build them before serving. Until an index
 * exists, queries that name it run without it (SQLite scans the table and
 * sorts: the same rows, slower). Each build is one `CREATE INDEX` under the
 * mutation lock (never inside a mutation's open transaction); calls wait
 * while it runs, ~1.8 s per million documents measured here.
 */
export class IndexBuilds {
  readonly #storage: DurableObjectStorage;
  readonly #exclusive: <T>(task: () => Promise<T>) => Promise<T>;
  readonly #pending: DeferredIndex[] = [];

  constructor(storage: DurableObjectStorage, exclusive: <T>(task: () => Promise<T>) => Promise<T>) {
    this.#storage = storage;
    this.#exclusive = exclusive;
  }

  /** Queues deferred indexes and arms the alarm that builds them. */
  async schedule(indexes: readonly DeferredIndex[]): Promise<void> {
    if (indexes.length === 0) return;
    this.#pending.push(...indexes);
    for (const index of indexes) {
      console.log(
        `svc: index ${index.sqlName} of table ${index.table} will be built after start (large table)`,
      );
    }
    await armAlarm(this.#storage, Date.now());
  }

  /** Builds every queued index, one at a time, letting waiting calls run between builds. */
  async alarm(): Promise<void> {
    for (let next = this.#pending.shift(); next !== undefined; next = this.#pending.shift()) {
      const index = next;
      const started = Date.now();
      await this.#exclusive(async () => this.#storage.sql.exec(index.statement));
      console.log(
        `svc: built index ${index.sqlName} of table ${index.table} in ${Date.now() - started} ms`,
      );
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
}
