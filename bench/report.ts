import { count, kib, ratio, table, verdict } from "./lib/format.ts";
import type { Machine } from "./lib/machine.ts";
import type { AuthResult } from "./scenarios/auth.ts";
import type { BundleResult } from "./scenarios/bundle.ts";
import type { CodegenResult } from "./scenarios/codegen.ts";
import type { GatesResult } from "./scenarios/gates.ts";
import type { RateLimitResult } from "./scenarios/ratelimit.ts";
import type { TransportResult } from "./scenarios/transport.ts";

/** Everything one `npm run bench` measured. */
export interface Results {
  machine: Machine;
  transport: TransportResult;
  gates: GatesResult;
  auth: AuthResult;
  rateLimit: RateLimitResult;
  codegen: CodegenResult;
  bundle: BundleResult;
  totalSeconds: number;
}

function transportSection({ transport }: Results): string {
  const rows = transport.figures.map((f) => [
    f.name,
    count(f.requestsPerSecond),
    `${f.p50Ms} ms`,
    `${f.p99Ms} ms`,
    String(f.errors),
    f.rounds.join(" / "),
  ]);
  return [
    "## 1. REST vs RPC vs a hand-written route",
    "",
    "The same read of one row from a Durable Object's SQLite: svc REST (`GET /_svc/rest/rows/get`), svc RPC " +
      "(`POST /_svc/rpc`), and a hand-written Hono route calling the Durable Object directly (`bench/app`).",
    "",
    table(["target", "req/s (median)", "p50", "p99", "non-2xx", "rounds (req/s)"], rows),
    "",
    table(
      ["ratio", "measured", "goal", ""],
      [
        ["REST / RPC", ratio(transport.restVsRpc), "≥ 0.95×", verdict(transport.restVsRpc >= 0.95)],
        [
          "REST / hand-written",
          ratio(transport.restVsHandWritten),
          "≥ 0.85×",
          verdict(transport.restVsHandWritten >= 0.85),
        ],
      ],
    ),
  ].join("\n");
}

function loadRows(figures: GatesResult["figures"]): string[][] {
  return figures.map((f) => [
    f.name,
    count(f.requestsPerSecond),
    `${f.p50Ms} ms`,
    `${f.p99Ms} ms`,
    f.cpuMsPerRequest === null ? "" : `${f.cpuMsPerRequest.toFixed(1)} ms`,
    String(f.errors),
  ]);
}

const LOAD_HEADER = ["target", "req/s (median)", "p50", "p99", "CPU / request", "non-2xx"];

function gatesSection({ gates }: Results): string {
  const percent = (cost: number) => `${(cost * 100).toFixed(0)} %`;
  return [
    "## 2. Gate costs",
    "",
    "The REST read of section 1 through three svc workers in one bench worker: no gates, behind the REST " +
      "rate-limit gate (`@svc/ratelimit`, a rate that never refuses), and with the caller's identity resolved " +
      "from a better-auth session cookie (`sessionIdentity`). Every request carries the same cookie.",
    "",
    table(LOAD_HEADER, loadRows(gates.figures)),
    "",
    table(
      ["throughput cost", "measured", "goal", ""],
      [
        [
          "rate-limit gate",
          percent(gates.rateLimitCost),
          "≤ 15 %",
          verdict(gates.rateLimitCost <= 0.15),
        ],
        [
          "identity from a session cookie",
          percent(gates.identityCost),
          "≤ 15 %",
          verdict(gates.identityCost <= 0.15),
        ],
      ],
    ),
  ].join("\n");
}

function authSection({ auth }: Results): string {
  return [
    "## 3. Sign-up and sign-in",
    "",
    "svc (`handleAuthRequest` in front of `createWorker`, `ensureMigrated` on every request) against plain " +
      "better-auth with the same options (`betterAuth(...).handler`), both on local D1 in the same worker. CPU " +
      "per request is the workerd processes' user+system time from /proc over each round, divided by the " +
      "requests served; password hashing (native scrypt) is most of it.",
    "",
    table(LOAD_HEADER, loadRows(auth.figures)),
    "",
    table(
      ["ratio (svc / plain)", "measured", "goal", ""],
      [
        ["sign-up", ratio(auth.signUpRatio), "≥ 0.95×", verdict(auth.signUpRatio >= 0.95)],
        ["sign-in", ratio(auth.signInRatio), "≥ 0.95×", verdict(auth.signInRatio >= 0.95)],
      ],
    ),
  ].join("\n");
}

function rateLimitSection({ rateLimit }: Results): string {
  const { accuracy } = rateLimit;
  const exact = accuracy.allowed.every((allowed) => allowed === accuracy.limit);
  return [
    "## 5. Rate limiter",
    "",
    `Accuracy: ${accuracy.attempted} concurrent \`limit()\` calls on one key of a ${accuracy.limit}-per-hour fixed window, ` +
      `5 times: allowed ${accuracy.allowed.join(", ")} — ${exact ? "exactly the limit every time" : "**not exact**"}.`,
    "",
    "Overhead, measured inside the worker (loops of calls, median of 5 rounds):",
    "",
    table(
      ["call", "µs per call"],
      rateLimit.microsPerCall.map((row) => [row.op, row.micros.toFixed(0)]),
    ),
  ].join("\n");
}

function codegenSection({ codegen }: Results): string {
  return [
    "## 6. Codegen",
    "",
    `\`svc codegen\` on a generated app of ${count(codegen.procedures)} procedures in ${codegen.modules} modules ` +
      "(every one exposed on REST, with input and output validators), producing `api.ts`, `functions.ts`, `openapi.json` and `openapi.ts`.",
    "",
    table(
      ["measured (median of 3)", "runs", "goal", ""],
      [
        [
          `${codegen.secondsMedian.toFixed(2)} s`,
          codegen.runs.map((s) => `${s.toFixed(2)} s`).join(" / "),
          "< 3 s",
          verdict(codegen.secondsMedian < 3),
        ],
      ],
    ),
  ].join("\n");
}

function bundleSection({ bundle }: Results): string {
  return [
    "## 7. Worker size and start-up",
    "",
    "The example app built as `wrangler deploy --dry-run` builds it; start-up profiled with `wrangler check startup`.",
    "",
    table(
      ["figure", "measured", "goal", ""],
      [
        ["bundle, raw", kib(bundle.rawBytes), "", ""],
        ["bundle, gzip", kib(bundle.gzipBytes), "< 1 MiB", verdict(bundle.gzipBytes < 1024 * 1024)],
        [
          "start-up CPU (local workerd)",
          `${bundle.startupCpuMs.toFixed(1)} ms`,
          "well under Cloudflare's 1 s limit",
          verdict(bundle.startupCpuMs < 400),
        ],
      ],
    ),
    "",
    "What dominates the bundle (bytes of input, before minification):",
    "",
    table(
      ["input", "size"],
      bundle.largestInputs.map((input) => [`\`${input.path}\``, kib(input.bytes)]),
    ),
  ].join("\n");
}

/** BENCHMARKS.md from one run's results. */
export function renderReport(results: Results): string {
  const { machine } = results;
  return [
    "# Benchmarks",
    "",
    "Produced by `npm run bench` (bench/run.ts), which rewrites this file. Every HTTP figure is measured against",
    "`wrangler dev` (real workerd, local Durable Objects) on loopback with autocannon in the same process tree, after",
    "a warm-up, over interleaved rounds, reporting medians. The load generator shares the cores with workerd, so",
    "absolute numbers say little: quote the ratios, which compare targets measured side by side in the same run.",
    "",
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB; Node ${machine.node}; workerd ${machine.workerd}. ` +
      `Date: ${machine.date}. Whole run: ${results.totalSeconds} s.`,
    "",
    transportSection(results),
    "",
    gatesSection(results),
    "",
    authSection(results),
    "",
    rateLimitSection(results),
    "",
    codegenSection(results),
    "",
    bundleSection(results),
    "",
  ].join("\n");
}
