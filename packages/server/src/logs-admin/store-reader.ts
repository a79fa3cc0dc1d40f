import { endpointStub } from "../model/endpoint-stub.ts";
import { partitionName } from "../observability/plan.ts";
import type { CallRecord } from "../observability/record.ts";
import type {
  ErrorGroupRow,
  LogStoreEndpoint,
  PartitionCursor,
  RecordFilters,
  RollupRow,
  ServiceRow,
  StoreStats,
  WindowRollups,
} from "../observability/store/endpoint.ts";
import { unpackRollups, unpackTotals } from "../observability/store/packed-rollups.ts";
import type { RollupUnit } from "../observability/store/rollup-units.ts";

/** Where a merged page ends: the last row's time, partition and sequence number. */
export interface PageCursor {
  time: number;
  partition: number;
  seq: number;
}

/** A record with where it lives, for cursors. */
export interface PlacedRecord {
  record: CallRecord;
  time: number;
  partition: number;
  seq: number;
}

/**
 * The cursor one partition continues from, for the merged order `time` desc,
 * partition desc, `seq` desc: rows after (t, p, s) are older in time, or at
 * time t in a lower partition, or at (t, p) with a lower seq.
 */
function partitionCursor(cursor: PageCursor | null, partition: number): PartitionCursor | null {
  if (cursor === null) return null;
  if (partition === cursor.partition) return { time: cursor.time, seq: cursor.seq };
  return { time: cursor.time, inclusive: partition < cursor.partition };
}

/**
 * Reads the log store as one: asks every partition in parallel and merges.
 * Each partition answers at most a page, so a merged page costs one indexed
 * query per partition whatever the store's size.
 */
export class StoreReader {
  readonly #namespace: DurableObjectNamespace;
  readonly #partitions: number;

  constructor(namespace: DurableObjectNamespace, partitions: number) {
    this.#namespace = namespace;
    this.#partitions = partitions;
  }

  #each<T>(ask: (store: LogStoreEndpoint, partition: number) => Promise<T>): Promise<T[]> {
    return Promise.all(
      Array.from({ length: this.#partitions }, (_, partition) =>
        ask(endpointStub<LogStoreEndpoint>(this.#namespace, partitionName(partition)), partition),
      ),
    );
  }

  /** One page, newest first, after `cursor`. */
  async list(
    filters: RecordFilters,
    cursor: PageCursor | null,
    limit: number,
  ): Promise<PlacedRecord[]> {
    const pages = await this.#each((store, partition) =>
      store
        .list(filters, partitionCursor(cursor, partition), limit)
        .then((rows) => rows.map((row) => ({ ...row, partition }))),
    );
    return pages
      .flat()
      .sort((a, b) => b.time - a.time || b.partition - a.partition || b.seq - a.seq)
      .slice(0, limit);
  }

  /** One request's record, wherever it is stored. */
  async get(requestId: string): Promise<CallRecord | null> {
    const found = await this.#each((store) => store.get(requestId));
    return found.find((record) => record !== null) ?? null;
  }

  /** Records written after the given positions (one per partition), oldest first, and the new positions. */
  async tail(
    after: readonly number[],
    filters: RecordFilters,
    limit: number,
  ): Promise<{ records: CallRecord[]; positions: number[] }> {
    const answers = await this.#each((store, partition) =>
      store.after(after[partition] ?? 0, filters, limit),
    );
    return {
      records: answers
        .flatMap((answer) => answer.rows)
        .sort((a, b) => a.time - b.time)
        .map((row) => row.record),
      positions: answers.map((answer) => answer.lastSeq),
    };
  }

  /** Every partition's error groups, merged by fingerprint. */
  async groups(since: number, limit: number, excludeAdmin = false): Promise<ErrorGroupRow[]> {
    const merged = new Map<string, ErrorGroupRow>();
    const answers = await this.#each((store) => store.groups(since, limit, excludeAdmin));
    for (const row of answers.flat()) {
      const known = merged.get(row.fingerprint);
      if (known === undefined) {
        merged.set(row.fingerprint, row);
        continue;
      }
      merged.set(row.fingerprint, {
        ...known,
        count: known.count + row.count,
        firstSeen: Math.min(known.firstSeen, row.firstSeen),
        lastSeen: Math.max(known.lastSeen, row.lastSeen),
        sample: row.lastSeen > known.lastSeen ? row.sample : known.sample,
      });
    }
    return [...merged.values()].sort((a, b) => b.lastSeen - a.lastSeen).slice(0, limit);
  }

  /** Roll-ups of every partition, concatenated (not yet merged: callers sum by key). */
  async rollups(unit: RollupUnit, from: number, excludeAdmin = false): Promise<WindowRollups> {
    const answers = (await this.#each((store) => store.rollups(unit, from, excludeAdmin))).map(
      unpackRollups,
    );
    return {
      series: answers.flatMap((answer) => answer.series),
      totals: answers.flatMap((answer) => answer.totals),
    };
  }

  /** Totals of every partition (callers sum by key). */
  async totals(): Promise<RollupRow[]> {
    return (await this.#each((store) => store.totals())).flatMap(unpackTotals);
  }

  /** Per-service rows of every partition, merged by service and route. */
  async services(entry: "cron" | "queue", since: number): Promise<ServiceRow[]> {
    const merged = new Map<string, ServiceRow>();
    const newer = (a: CallRecord | null, b: CallRecord | null) =>
      a === null ? b : b === null ? a : a.time >= b.time ? a : b;
    for (const row of (await this.#each((store) => store.services(entry, since))).flat()) {
      const key = `${row.service}\u0000${row.route}`;
      const known = merged.get(key);
      merged.set(
        key,
        known === undefined
          ? row
          : {
              ...known,
              runs: known.runs + row.runs,
              failures: known.failures + row.failures,
              deadLettered: known.deadLettered + row.deadLettered,
              last: newer(known.last, row.last),
              lastFailure: newer(known.lastFailure, row.lastFailure),
            },
      );
    }
    return [...merged.values()];
  }

  /** Each partition's size. */
  stats(): Promise<StoreStats[]> {
    return this.#each((store) => store.stats());
  }
}
