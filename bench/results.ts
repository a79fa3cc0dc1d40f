import type { Machine } from "./lib/machine.ts";
import type { AdminResult } from "./scenarios/admin.ts";
import type { ApiKeysResult } from "./scenarios/api-keys.ts";
import type { AuthResult } from "./scenarios/auth.ts";
import type { BundleResult } from "./scenarios/bundle.ts";
import type { CodegenResult } from "./scenarios/codegen.ts";
import type { FanOutResult } from "./scenarios/fanout.ts";
import type { FrontendResult } from "./scenarios/frontend.ts";
import type { GatesResult } from "./scenarios/gates.ts";
import type { HarnessResult } from "./scenarios/harness.ts";
import type { ListsResult } from "./scenarios/lists.ts";
import type { MigrationsResult } from "./scenarios/migrations.ts";
import type { ObservabilityResult } from "./scenarios/observability.ts";
import type { ProfileReport } from "./scenarios/profile.ts";
import type { RateLimitResult } from "./scenarios/ratelimit.ts";
import type { RegistryResult } from "./scenarios/registry.ts";
import type { RlsResult } from "./scenarios/rls.ts";
import type { SchedulerResult } from "./scenarios/scheduler.ts";
import type { SearchResult } from "./scenarios/search.ts";
import type { ShardsResult } from "./scenarios/shards.ts";
import type { StorageResult } from "./scenarios/storage.ts";
import type { StudioResult } from "./scenarios/studio.ts";
import type { TransportResult } from "./scenarios/transport.ts";

/**
 * The figures of one full `npm run bench`, as bench/results.json keeps them:
 * the report renders from this shape, and so does `npm run bench:render`.
 */
export interface Results {
  machine: Machine;
  transport: TransportResult;
  /** Absent from runs before the lists scenario existed. */
  lists?: ListsResult;
  gates: GatesResult;
  apiKeys: ApiKeysResult;
  rls: RlsResult;
  studio: StudioResult;
  /** Absent in results from before the search scenario existed. */
  search?: SearchResult;
  auth: AuthResult;
  admin: AdminResult;
  rateLimit: RateLimitResult;
  codegen: CodegenResult;
  bundle: BundleResult;
  fanOut: FanOutResult;
  observability: ObservabilityResult;
  frontend: FrontendResult;
  migrations: MigrationsResult;
  registry: RegistryResult;
  shards: ShardsResult;
  /** Absent from runs before the harness existed. */
  harness?: HarnessResult;
  /**
   * The last CPU profile of each profiled scenario (`npm run bench -- --profile
   * transport`), kept across full runs: a profile is taken on its own.
   */
  profiles?: Partial<Record<"transport" | "gates", ProfileReport>>;
  /** Absent in results from before the storage scenario existed. */
  storage?: StorageResult;
  /** Absent in results from before the scheduler scenario existed. */
  scheduler?: SchedulerResult;
  /**
   * Scenarios measured since by `npm run bench -- --merge <scenario>…` and put
   * in place of the full run's: which, when, and how long that run took.
   */
  /** The `--merge` runs whose figures replaced the full run's, oldest first (one object in older files). */
  merged?: MergedRun[] | MergedRun;
  totalSeconds: number;
}

/** A run of chosen scenarios whose figures replaced the full run's (`--merge`). */
/**
 * The merged runs still behind some figure: a new run takes its scenarios
 * out of older ones, and a run left with none is dropped.
 *
 * @example mergedRuns(results) // [{ scenarios: ["transport"], date: "2026-12-04", seconds: 160 }]
 */
export function mergedRuns(results: Pick<Results, "merged">): MergedRun[] {
  const merged = results.merged;
  if (merged === undefined) return [];
  return Array.isArray(merged) ? merged : [merged];
}

/**
 * `runs` with `run` added last and its scenarios taken out of the older ones.
 *
 * @example withMergedRun([], { scenarios: ["gates"], date: "2026-12-04", seconds: 90 })
 */
export function withMergedRun(runs: readonly MergedRun[], run: MergedRun): MergedRun[] {
  const older = runs
    .map((old) => ({
      ...old,
      ran: old.ran ?? old.scenarios,
      scenarios: old.scenarios.filter((s) => !run.scenarios.includes(s)),
    }))
    .filter((old) => old.scenarios.length > 0);
  return [...older, run];
}

export interface MergedRun {
  /** Every scenario the run measured, when later runs replaced some (the command given). */
  ran?: string[];
  scenarios: string[];
  date: string;
  seconds: number;
}
