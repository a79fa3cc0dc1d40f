import { armAlarm } from "../durable/alarms.ts";
import { deleteMeta, readMeta, writeMeta } from "../durable/meta.ts";
import type { ShardReport } from "./report.ts";
import { buildReport, storedTables } from "./report.ts";

/** The registry partition a shard writes to (the shard class's own registry methods). */
export interface RegistryPartitionEndpoint {
  registryPut(report: ShardReport): Promise<void>;
}

/** What a {@link RegistryReporter} needs from its shard. */
export interface ReporterDeps {
  key: string;
  storage: DurableObjectStorage;
  /** The partition holding this shard's row (resolved lazily: only alarms use it). */
  partition: () => RegistryPartitionEndpoint;
  /** Least time between two reports of this shard. */
  intervalMs: number;
}

const DUE_KEY = "registry_due";
const CREATED_KEY = "created_at";

/**
 * Keeps a shard's row in the registry current without touching the request
 * path. A commit only notes what changed (memory, plus one `_svc_meta` write
 * when it makes a report due sooner); the report itself goes out from the
 * shard's alarm, at most once per interval: the first write of a new shard and
 * the first after a quiet interval are reported at once, later ones together
 * at the end of the interval. The due time lives in storage, so a report owed
 * when the object is evicted is sent when its alarm wakes it.
 */
export class RegistryReporter {
  readonly #deps: ReporterDeps;
  /** Row counts of tables not written since they were counted. */
  readonly #counts = new Map<string, number>();
  #createdAt = 0;
  #lastWriteAt: number | null = null;
  #lastReportAt = 0;
  /**
   * This object made the shard's registry record (no `created_at` before it)
   * and has sent no report yet: the registry has never heard of the shard.
   */
  #unreported = false;
  /** When the report already due (in storage and in the alarm) goes out; `null` when none is. */
  #dueAt: number | null = null;
  /** Open holds on the first report (imports into a shard the registry has not heard of). */
  #holds = 0;

  constructor(deps: ReporterDeps) {
    this.#deps = deps;
  }

  /**
   * Runs once per instance, after the schema is applied. A shard that never
   * reported (new, or older than the registry) owes its first report one
   * interval from now, or at its first write if that comes sooner: a shard
   * that was only read still appears, and one just written appears at once.
   */
  async start(): Promise<void> {
    const { sql } = this.#deps.storage;
    const created = readMeta(sql, CREATED_KEY);
    if (created !== null) {
      this.#createdAt = Number(created);
      const due = readMeta(sql, DUE_KEY);
      this.#dueAt = due === null ? null : Number(due);
      return;
    }
    this.#createdAt = oldestDocument(sql) ?? Date.now();
    writeMeta(sql, CREATED_KEY, String(this.#createdAt));
    this.#unreported = true;
    await this.#schedule(Date.now() + this.#deps.intervalMs);
  }

  /**
   * Notes a committed write of `tables` (svc table names), or of every table
   * (`"all"`: imports, migrations). Never waits for anything remote.
   */
  noteWrite(tables: Iterable<string> | "all"): void {
    this.#lastWriteAt = Date.now();
    if (tables === "all") this.#counts.clear();
    else for (const table of tables) this.#counts.delete(table);
    const at = Math.max(Date.now(), this.#lastReportAt + this.#deps.intervalMs);
    if (this.#dueAt !== null && this.#dueAt <= at) return;
    void this.#schedule(at).catch((error: unknown) =>
      console.error("svc: could not schedule the registry report", error),
    );
  }

  /**
   * Whether the registry has never heard of this shard: it was created in
   * this object's life and no report went out yet. A refused import into
   * such a shard erases it, so the refusal leaves no registry row.
   */
  get unreported(): boolean {
    return this.#unreported;
  }

  /**
   * Keeps the first report back until the returned release is called: an
   * import into a shard the registry has never heard of may still be refused,
   * and the refusal erases the shard only while it is unreported. Without the
   * hold, an import slower than one interval let the alarm report the shard
   * first, and the refused import left an empty shard listed. While held, a
   * due report waits one more interval at a time; a shard already reported is
   * not held. Releasing twice is harmless.
   *
   * @example
   * const release = reporter.holdFirstReport();
   * try { await stageImport(); } finally { release(); }
   */
  holdFirstReport(): () => void {
    if (!this.#unreported) return () => {};
    this.#holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds -= 1;
    };
  }

  /**
   * After the shard's data was deleted: forget everything, count the shard
   * as created just after `deletedAt` and report nothing until it is written
   * again (its registry row is gone with the data).
   */
  reset(deletedAt: number): void {
    this.#counts.clear();
    this.#lastWriteAt = null;
    this.#dueAt = null;
    this.#createdAt = deletedAt + 1;
    writeMeta(this.#deps.storage.sql, CREATED_KEY, String(this.#createdAt));
  }

  /** The shard's alarm fired: report if due, else keep the alarm for the due time. */
  async alarm(): Promise<void> {
    const { sql } = this.#deps.storage;
    const due = readMeta(sql, DUE_KEY);
    if (due === null) return;
    if (Number(due) > Date.now()) return armAlarm(this.#deps.storage, Number(due));
    if (this.#unreported && this.#holds > 0) {
      return this.#schedule(Date.now() + this.#deps.intervalMs);
    }
    // Cleared before sending: a write during the send schedules the next report.
    deleteMeta(sql, DUE_KEY);
    this.#dueAt = null;
    this.#unreported = false;
    this.#lastReportAt = Date.now();
    const report = buildReport(
      sql,
      { key: this.#deps.key, createdAt: this.#createdAt, lastWriteAt: this.#lastWriteAt },
      this.#counts,
    );
    try {
      await this.#deps.partition().registryPut(report);
    } catch (error) {
      console.error(
        `svc: shard ${JSON.stringify(this.#deps.key)} could not report to the registry; retrying`,
        error,
      );
      if (this.#dueAt === null) await this.#schedule(Date.now() + this.#deps.intervalMs);
    }
  }

  async #schedule(at: number): Promise<void> {
    this.#dueAt = at;
    writeMeta(this.#deps.storage.sql, DUE_KEY, String(at));
    await armAlarm(this.#deps.storage, at);
  }
}

/** The creation time of the oldest document, for shards with data from before the registry. */
function oldestDocument(sql: SqlStorage): number | null {
  let oldest: number | null = null;
  for (const table of storedTables(sql)) {
    const row = sql
      .exec<{ t: number | null }>(`SELECT min(_creationTime) AS t FROM "t_${table}"`)
      .one();
    if (row.t !== null && (oldest === null || row.t < oldest)) oldest = row.t;
  }
  return oldest;
}
