import { count, ratio, table } from "./lib/format.ts";
import type { ShardSpreadRow, ShardsResult } from "./scenarios/shards.ts";

const TITLE = "## 11. Many shards: memory, cold calls, throughput as shards grow";

function spreadRows(rows: readonly ShardSpreadRow[]): string[][] {
  return rows.map(({ shards, figures, ratioToOne }) => [
    figures.name,
    count(figures.requestsPerSecond),
    `${figures.p50Ms} ms`,
    `${figures.p99Ms} ms`,
    figures.cpuMsPerRequest === null ? "" : `${figures.cpuMsPerRequest.toFixed(2)} ms`,
    shards === 1 ? "1.00× (baseline)" : ratio(ratioToOne),
    String(figures.errors),
  ]);
}

/**
 * BENCHMARKS.md's many-shards section, which docs/scaling.md's capacity
 * model quotes (a note when results from before the scenario have none).
 *
 * @example shardsSection(results.shards) // "## 11. Many shards: …"
 */
export function shardsSection(shards: ShardsResult | undefined): string {
  if (shards === undefined) return [TITLE, "", "Not measured in this run."].join("\n");
  const { memoryMiB, firstCall, wake } = shards;
  return [
    TITLE,
    "",
    `${count(shards.shards)} shards of the bench app on one local workerd, each created by two RPC writes ` +
      "(`rows:seed`). Memory is the resident set (VmRSS) of this run's own workerd process, read from /proc; " +
      "CPU per request counts that process only. workerd evicts an object after 10 s without calls, as " +
      "Cloudflare hibernates an idle one, so memory is read right after two sweeps of reads over every shard " +
      "(all of them called within the last sweep) and again after they idled. Locally every shard runs in the one workerd " +
      "process and one isolate, so throughput over many shards shows what spreading costs (spread thin enough, " +
      "every call starts an evicted object), not the parallelism Cloudflare gets by placing objects on many machines.",
    "",
    table(
      ["memory", "value"],
      [
        ["workerd RSS, one warm shard", `${memoryMiB.before.toFixed(0)} MiB`],
        ...memoryMiB.curve.map(({ shards: n, rssMiB }) => [
          `workerd RSS, ${count(n)} shards created (older ones evicted meanwhile)`,
          `${rssMiB.toFixed(0)} MiB`,
        ]),
        [
          `right after two sweeps of reads over all ${count(shards.shards)} (one took ${shards.sweepSeconds.toFixed(1)} s)`,
          `${memoryMiB.active.toFixed(0)} MiB`,
        ],
        [`after ${shards.idleSeconds} s idle (all evicted)`, `${memoryMiB.idle.toFixed(0)} MiB`],
        [
          "per shard in memory ((after the sweeps − one shard) ÷ shards)",
          `${shards.perActiveShardKiB.toFixed(0)} KiB`,
        ],
        [
          "per shard after eviction (memory the process kept for reuse, not live objects)",
          `${shards.perIdleShardKiB.toFixed(0)} KiB`,
        ],
      ],
    ),
    "",
    table(
      ["first call into a shard (one connection, in sequence)", "median"],
      [
        ["cold: the shard's first write", `${firstCall.coldMs.toFixed(1)} ms`],
        ["warm: its second write", `${firstCall.warmMs.toFixed(1)} ms`],
        ["cold / warm", ratio(firstCall.ratio)],
        ["cold, p90", `${firstCall.coldP90Ms.toFixed(1)} ms`],
        [
          `an evicted shard's first REST read (${wake.shards} shards)`,
          `${wake.coldMs.toFixed(1)} ms`,
        ],
        ["its second read", `${wake.warmMs.toFixed(1)} ms`],
        ["evicted / warm", ratio(wake.ratio)],
        ["evicted, p90", `${wake.coldP90Ms.toFixed(1)} ms`],
      ],
    ),
    "",
    table(
      ["target", "req/s (median)", "p50", "p99", "CPU / request", "vs 1 shard", "non-2xx"],
      [...spreadRows(shards.read), ...spreadRows(shards.write)],
    ),
  ].join("\n");
}
