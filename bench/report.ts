import { apiKeysSection } from "./api-keys-report.ts";
import { gatesSection } from "./gates-report.ts";
import { goalsSection } from "./goals-report.ts";
import { harnessSection } from "./harness-report.ts";
import { count, kib, ratio, table, verdict } from "./lib/format.ts";
import { GOALS, SECTION_TITLES } from "./lib/goals.ts";
import { LOAD_HEADER, loadRows } from "./lib/load-table.ts";
import { listsSection } from "./lists-report.ts";
import { observabilitySection } from "./observability-report.ts";
import { profileSection } from "./profile-report.ts";
import { mergedRuns, type Results } from "./results.ts";
import type { AdminCase, AdminResult } from "./scenarios/admin.ts";
import type { AuthResult } from "./scenarios/auth.ts";
import type { MigrationsResult } from "./scenarios/migrations.ts";
import { schedulerSection } from "./scheduler-report.ts";
import { searchSection } from "./search-report.ts";
import { shardsSection } from "./shards-report.ts";
import { storageSection } from "./storage-report.ts";
import { studioSection } from "./studio-report.ts";
import { transportSection } from "./transport-report.ts";

export type { Results } from "./results.ts";

/** Where `npm run bench` keeps the raw figures of its last full run. */
export const RESULTS_FILE = new URL("./results.json", import.meta.url).pathname;

/** CI's `npm test` seconds from `BENCH_NPM_TEST_SECONDS`, or `null` when not given. */
function npmTestSeconds(): number | null {
  const seconds = Number(process.env.BENCH_NPM_TEST_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** Where BENCHMARKS.md's hand-kept part (written by `npm run test:release`) starts; bench runs keep it. */
export const RELEASE_MARKER =
  "<!-- measured by npm run test:release; npm run bench keeps this part -->";

/** The new report followed by the hand-kept part of `previous` (from {@link RELEASE_MARKER} on). */
export function withKeptPart(report: string, previous: string): string {
  const kept = previous.includes(RELEASE_MARKER)
    ? previous.slice(previous.indexOf(RELEASE_MARKER))
    : "";
  return `${[report.trimEnd(), kept.trimEnd()].filter(Boolean).join("\n\n")}\n`;
}

function rlsSection({ rls }: Results): string {
  const goal = 1.5;
  const slowdown = 1 / rls.declarativeRatio;
  return [
    "## 2b. Row-level security with 100,000 foreign rows",
    "",
    `\`posts:mine\` (REST, the caller's newest 20 posts of a channel via \`withIndex("by_channel")\`) in a shard holding only ` +
      `the caller's 50 posts, and in one that also holds ${count(rls.foreignRows)} posts of 10 other users in the same ` +
      'channel. Declarative rule `rule.eq("author", rule.userId)`, compiled into the SQL and served by the ' +
      "`by_author_channel` index, against the same policy written as a function (a post-filter over every row of " +
      "the channel).",
    "",
    table(LOAD_HEADER, loadRows(rls.figures)),
    "",
    table(
      ["measure", "full shard / own rows only", "goal", ""],
      [
        [
          "declarative rule: time per read (1 / throughput ratio)",
          ratio(slowdown),
          `≤ ${ratio(goal)}`,
          verdict(slowdown <= goal),
        ],
        [
          "declarative rule: workerd CPU per read",
          rls.declarativeCpuRatio === null ? "n/a" : ratio(rls.declarativeCpuRatio),
          "",
          "",
        ],
        [
          "function policy: single-request latency (7 sequential, median)",
          `${rls.functionLatencyMs.full.toFixed(1)} ms against ${rls.functionLatencyMs.empty.toFixed(1)} ms (${ratio(rls.functionLatencyMs.full / rls.functionLatencyMs.empty)})`,
          "",
          "",
        ],
      ],
    ),
  ].join("\n");
}

function authSection({ auth }: Results): string {
  return [
    SECTION_TITLES.auth,
    "",
    "svc (`handleAuthRequest` in front of `createWorker`, `ensureMigrated` until the tables exist) against plain " +
      "better-auth with the same options (`betterAuth(...).handler`), both on local D1 in the same worker. CPU " +
      "per request is the workerd processes' user+system time from /proc over each round, divided by the " +
      "requests served; password hashing (native scrypt) is most of it.",
    "",
    table(LOAD_HEADER, loadRows(auth.figures)),
    "",
    table(
      ["ratio (svc / plain)", "measured", "goal", ""],
      [
        [
          "sign-up",
          ratio(auth.signUpRatio),
          `≥ ${ratio(GOALS.signUpRatio)}`,
          verdict(auth.signUpRatio >= GOALS.signUpRatio),
        ],
        [
          "sign-in",
          ratio(auth.signInRatio),
          `≥ ${ratio(GOALS.signInRatio)}`,
          verdict(auth.signInRatio >= GOALS.signInRatio),
        ],
      ],
    ),
    ...authNotes(auth),
  ].join("\n");
}

/** Why a missed auth ratio is missed, from the CPU figures of the same run. */
function authNotes(auth: AuthResult): string[] {
  if (auth.signUpRatio >= GOALS.signUpRatio && auth.signInRatio >= GOALS.signInRatio) return [];
  const cpu = auth.figures.map((f) => `${f.name} ${f.cpuMsPerRequest?.toFixed(1) ?? "?"} ms`);
  return [
    "",
    "**Why a ratio is under its goal, and what would close it.** CPU per request in this run: " +
      `${cpu.join(", ")}. What svc adds in front of and inside better-auth, as the code stands: ` +
      "`handleAuthRequest`'s path check and body check " +
      "(`checkAuthBody` reads the body up to its cap and hands better-auth a copy), and after a write an " +
      "expiry of this isolate's revocation view; `createAuth`'s additions to the options (svc's admin schema " +
      "plugin, the impersonation guard's hooks, joined reads); and in svc's database the rows its triggers " +
      "keep, which plain better-auth's database lacks: a sign-up inserts a user and a session, so it also " +
      "writes the user search index (FTS5 trigram), the activity table and the user counters; a sign-in " +
      "inserts a session (activity and counters). Where the two CPU figures of a pair agree within a few per " +
      "cent, the throughput gap is the run's noise (a handful of requests per round at tens of ms of CPU " +
      "each, mostly scrypt), not cost, and more rounds narrow it. Where svc's CPU is higher, a CPU profile of " +
      "the pair would split the triggers' writes from the request handling; the triggers are what the admin " +
      "search, counters and revocation log are built on, so the trade is theirs.",
  ];
}

/** The goal of an admin case (issue 32): every list case and the detail 50 ms, the overview 100 ms. */
function adminGoalMs(row: AdminCase): number {
  return row.path.startsWith("overview") ? GOALS.adminOverviewMs : GOALS.adminCaseMs;
}

function adminSection({ admin }: Results): string {
  const rows = admin.results.map((row) => [
    row.name,
    `\`${row.path}\``,
    row.total === undefined ? "" : `${count(row.total)}${row.totalIsExact === false ? "+" : ""}`,
    `${row.svcMs.toFixed(0)} ms`,
    `${row.rawMs.toFixed(0)} ms`,
    row.rawMs > 0 ? `${(row.svcMs / row.rawMs).toFixed(2)}×` : "",
    `< ${adminGoalMs(row)} ms: ${verdict(row.svcMs < adminGoalMs(row))}`,
  ]);
  const planned = admin.results.filter((row) => /search|filter/.test(row.name));
  const plans = planned.flatMap((row) => [
    `- ${row.name} (\`${row.path}\`):`,
    ...row.plans.map(
      (steps, index) =>
        `  - statement ${index + 1} (\`${statementKind(row.statements[index]!)}\`): ${steps.map((step) => `\`${step}\``).join(" → ")}`,
    ),
  ]);
  return [
    SECTION_TITLES.admin,
    "",
    `${count(admin.users)} users seeded into local D1 (${(admin.seededMs / 1000).toFixed(1)} s, batched inserts); each request ` +
      "goes through `createWorker`'s admin gate to `createAuthAdmin`, as the dashboard's do, inside workerd " +
      `(\`npm run bench:admin -w @svc/auth\`). Median of ${admin.rounds} rounds. The baseline is the very SQL ` +
      "that request issued, run straight on the D1 binding in the same round: the difference is what svc adds. " +
      "workerd's clock advances in whole milliseconds, so 1 ms is the resolution." +
      (admin.load === undefined
        ? ""
        : ` The machine's 1-minute load average was ${admin.load.start.toFixed(1)} when the run started and ` +
          `${admin.load.end.toFixed(1)} when it ended (2 cores shared): read the ratio to the same SQL, measured ` +
          "in the same round, before the milliseconds."),
    "",
    table(["case", "request", "total", "svc (p50)", "same SQL on D1", "svc / D1", "goal"], rows),
    "",
    "Totals come from svc's user counters (`svc_user_counts`, kept by triggers: users, bans, users per " +
      "role string, sign-ups per day, active users per hour) where they can; a total that would cost more " +
      "than the page is counted up to 10,000 and answered as a lower bound (`totalIsExact: false`, shown " +
      "with “+”), as docs/admin-api.md documents. SQLite's plan (`EXPLAIN QUERY PLAN`) for the searches " +
      "and filters: a search of three or more characters reads svc's FTS5 trigram index " +
      "(`svc_user_search`), in one statement (`search`) that first counts each of its trigrams among the " +
      "1,000 oldest users and leaves those held by more than one in ten out of the lookup, testing the rows " +
      "the rest finds against the whole term; a small role or ban filter walks `svc_user_role_idx` / `svc_user_banned_idx`; " +
      "a broad one walks the sort order's index and stops at a full page.",
    "",
    ...plans,
    ...adminNotes(admin),
  ].join("\n");
}

/**
 * Where a slow case's time goes, measured: its SQL alone on D1 against the
 * request through svc, and the plan steps that walk a table or an index.
 */
function whereTimeGoes(row: AdminCase): string {
  // A walk of a table or an index, not an FTS5 lookup or a constant.
  const scans = row.plans
    .flat()
    .filter((step) => /^SCAN /.test(step) && !/VIRTUAL TABLE|CONSTANT ROW/.test(step));
  const sqlShare = row.svcMs > 0 ? row.rawMs / row.svcMs : 0;
  const where =
    sqlShare >= 0.8
      ? "its SQL is the time"
      : `svc's handling around the SQL is ${Math.round((1 - sqlShare) * 100)} % of it`;
  const scanned =
    scans.length === 0
      ? "no step walks a table or an index: the index lookups of its plan are the time"
      : `walks: ${scans.map((step) => `\`${step}\``).join(", ")}`;
  return `${row.name}: ${row.svcMs.toFixed(0)} ms through svc, ${row.rawMs.toFixed(0)} ms for its SQL on D1 (${where}; ${scanned})`;
}

/** Why a case over its goal is over, and what would close it, from this run's figures. */
function adminNotes(admin: AdminResult): string[] {
  const slow = admin.results.filter(
    (row) => row.svcMs >= adminGoalMs(row) && !row.path.startsWith("overview"),
  );
  const overview = admin.results.find((row) => row.path.startsWith("overview"));
  const notes: string[] = [];
  if (admin.users < GOALS.adminUsers) {
    notes.push(
      "",
      `**This run seeded ${count(admin.users)} users**, fewer than issue 32's ${count(GOALS.adminUsers)}: ` +
        "its times do not show whether the goals hold at a million.",
    );
  }
  if (overview !== undefined && overview.svcMs >= adminGoalMs(overview)) {
    notes.push(
      "",
      `**Why the overview missed ${GOALS.adminOverviewMs} ms, and what would close it.** ${whereTimeGoes(overview)}. ` +
        "It reads a few counter rows (`svc_user_counts`) and, for each activity window, the users of its " +
        "boundary hour from `svc_user_activity`. Where the SQL is the time, the walk named here is the " +
        "step to index or roll up; where svc's handling is, a CPU profile of the admin route is next. The " +
        "machine's load moves these figures: compare the seeding time at the top of this section between runs.",
    );
  }
  if (slow.length === 0) return notes;
  return [
    ...notes,
    "",
    `**Why ${slow.length === 1 ? "a case" : `${slow.length} cases`} missed ${GOALS.adminCaseMs} ms, and what would close it.** ` +
      `${slow.map(whereTimeGoes).join("; ")}. Where the SQL is the time, the walk named for it ` +
      "is what an index or a capped count would remove; where svc's handling is, a CPU profile of the " +
      "admin route is next. The machine's load moves these figures: compare the seeding time at the top of " +
      "this section between runs.",
  ];
}

/** `count`, `search`, `page` or `roles` (the skip scan of distinct roles), from a statement's text. */
function statementKind(sql: string): string {
  if (sql.startsWith("SELECT COUNT")) return "count";
  if (sql.startsWith("WITH grams")) return "search";
  if (sql.startsWith("WITH RECURSIVE")) return "roles";
  return "page";
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
    "Where start-up CPU goes (frames with the most self time in the profile; `__init` is esbuild's " +
      "wrapper that evaluates a bundled module's top level, so most of it is better-auth, its plugins and " +
      "their zod schemas being built; `(program)` is V8 parsing and compiling the script):",
    "",
    table(
      ["frame", "self time"],
      bundle.startupFrames.map((row) => [`\`${row.frame}\``, `${row.ms.toFixed(1)} ms`]),
    ),
    "",
    "The start-up figure is what `wrangler check startup` samples in local workerd on this machine, " +
      "slower than Cloudflare's; Cloudflare's limit on start-up is 1 s of CPU. What would cut it: loading " +
      "rarely used plugins (oauthProvider, mcp) lazily, which better-auth's plugin API does not offer " +
      "today, or leaving them out of an app that does not use them (the example enables a broad set on " +
      "purpose).",
    "",
    "What dominates the bundle (bytes of input, before minification):",
    "",
    table(
      ["input", "size"],
      bundle.largestInputs.map((input) => [`\`${input.path}\``, kib(input.bytes)]),
    ),
  ].join("\n");
}

function fanOutSection({ fanOut }: Results): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return [
    "## 8. Live queries: fan-out against polling",
    "",
    "N WebSocket subscribers (`GET /_svc/ws`, one socket each, all of the same caller) watch one row " +
      "(`rows:get`); one commit at a time (`rows:bump` over RPC). Push latency runs from sending the " +
      "mutation until every subscriber holds the new value, measured in the load generator (which also " +
      "decodes every frame, on the other core). The baseline is the same N clients polling `rows:get` " +
      "over RPC once a second, staggered, with one commit a second: its latency runs from the commit to " +
      "each poller's first answer showing it. CPU is workerd's, per second at one commit a second.",
    "",
    table(
      [
        "subscribers",
        "push p50",
        "push p99",
        "CPU per pushed update",
        "push CPU/s",
        "poll p50",
        "poll p99",
        "poll CPU/s",
        "CPU push/poll",
      ],
      fanOut.rows.map((row) => [
        count(row.subscribers),
        ms(row.pushP50Ms),
        ms(row.pushP99Ms),
        `${(row.cpuMsPerPush * 1000).toFixed(0)} µs`,
        ms(row.pushCpuMsPerSecond),
        ms(row.pollP50Ms),
        ms(row.pollP99Ms),
        ms(row.pollCpuMsPerSecond),
        ratio(row.pushCpuMsPerSecond / row.pollCpuMsPerSecond),
      ]),
    ),
    "",
    "Subscribers with the same query, arguments and caller share one run per commit (the shard runs " +
      "`rows:get` once and sends its result to every socket), so the push cost per subscriber is the " +
      "frame, not the query.",
  ].join("\n");
}

function migrationsSection({ migrations }: Results): string {
  // A results.json from before this scenario existed has no figures for it.
  if (migrations === undefined) return "";
  const ms = (value: number) => `${Math.round(value).toLocaleString("en-US")} ms`;
  const row = (name: string, figures: MigrationsResult["oneShard"]) => [
    name,
    count(figures.documentsPerShard),
    count(figures.svcDocsPerSecond),
    count(figures.plainDocsPerSecond),
    ratio(figures.ratio),
  ];
  return [
    "## 13. Data migrations and index builds",
    "",
    "An online migration (`bench/app/svc/migrations/`: old `{ n, body }` documents gain `label` and " +
      "`migrated`) run by each shard from its alarm in batched transactions (500 documents, the default), " +
      "against a plain UPDATE loop doing the same change in plain Durable Objects (read, parse, change, " +
      "write back, 500 per transaction). svc also checks each result against the schema, marks and skips " +
      "documents the app rewrote first, yields to waiting calls between batches and persists its cursor. " +
      `Medians of ${migrations.oneShard.svcRounds.length} rounds; the shards of a row run at once in one workerd.`,
    "",
    table(
      ["shards", "documents per shard", "svc docs/s", "plain UPDATE loop docs/s", "svc/plain"],
      [row("1", migrations.oneShard), row("10", migrations.tenShards)],
    ),
    "",
    "A new index on a table that already holds documents, built when the shard starts (before it serves; " +
      "above `indexRowsAtStart`, one million by default, it is built from the alarm right after start) " +
      "against a plain `CREATE INDEX` on the same documents in a plain Durable Object.",
    "",
    table(
      ["documents", "svc start with the build", "svc start without", "plain CREATE INDEX"],
      migrations.indexBuilds.map((build) => [
        count(build.documents),
        ms(build.svcStartMs),
        ms(build.svcStartWithoutBuildMs),
        ms(build.plainCreateIndexMs),
      ]),
    ),
    ...callsDuringMigration(migrations.callsDuring),
  ].join("\n");
}

/** The latency table of reads made while a shard migrates (none in results from before it). */
function callsDuringMigration(figures: MigrationsResult["callsDuring"]): string[] {
  if (figures === undefined) return [];
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const row = (name: string, latency: typeof figures.idle) => [
    name,
    count(latency.calls),
    ms(latency.p50Ms),
    ms(latency.p95Ms),
    ms(latency.p99Ms),
    ms(latency.maxMs),
  ];
  const alone = figures.workerAlone;
  return [
    "",
    `Calls while a migration runs: a REST read (\`rows:get\`), one call after another, to a shard ` +
      `migrating ${count(figures.documents)} documents, against the same reads to it idle just before` +
      (alone === undefined
        ? ". "
        : "; then a request the worker answers alone (a 404) while a second shard migrates as many: it never reaches the shard, but here shares its isolate. ") +
      "Wall time per call over HTTP; the migration yields to waiting calls between batches.",
    "",
    table(
      ["call", "shard", "calls", "p50", "p95", "p99", "max"],
      [
        ["REST read", ...row("idle", figures.idle)],
        ["REST read", ...row("migrating", figures.during)],
        ...(alone === undefined
          ? []
          : [
              ["the worker alone (404)", ...row("idle", alone.idle)],
              ["the worker alone (404)", ...row("migrating", alone.during)],
            ]),
      ],
    ),
  ];
}

/** Issue 30's goal for `@svc/react` + `@svc/client` as an app imports them. */
const FRONTEND_LIBRARIES_GOAL_BYTES = 8 * 1024;

function frontendSection({ frontend }: Results): string {
  // Results from before the scenario existed have no frontend part.
  if (frontend === undefined) return "";
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return [
    "## 9. React: browser to browser, and what the UI weighs",
    "",
    `The React template (\`npm create svc@latest -- --template react\`) built with Vite against this checkout and ` +
      `served by \`wrangler dev\`. One Chromium context adds ${count(frontend.mutations)} notes one at a time ` +
      "(after 10 for warm-up); another context of the same user renders its live list. Latency runs from the " +
      "submit in the first to the note in the second's DOM (one Chromium: one clock). The baseline is the " +
      "mutation's own HTTP round trip as the first context saw it.",
    "",
    table(
      ["", "p50", "p99"],
      [
        ["rendered in the other browser", ms(frontend.renderP50Ms), ms(frontend.renderP99Ms)],
        ["baseline: the mutation's HTTP round trip", ms(frontend.rpcP50Ms), ms(frontend.rpcP99Ms)],
        [
          "ratio",
          ratio(frontend.renderP50Ms / frontend.rpcP50Ms),
          ratio(frontend.renderP99Ms / frontend.rpcP99Ms),
        ],
      ],
    ),
    "",
    table(
      ["gzip", "size", "against React + ReactDOM", "goal"],
      [
        [
          "`@svc/react` + `@svc/client` (minified, React external)",
          kib(frontend.librariesGzipBytes),
          ratio(frontend.librariesGzipBytes / frontend.reactGzipBytes),
          `≤ 8 KiB: ${verdict(frontend.librariesGzipBytes <= FRONTEND_LIBRARIES_GOAL_BYTES)}`,
        ],
        ["React + ReactDOM `createRoot` alone", kib(frontend.reactGzipBytes), ratio(1), ""],
        [
          "the template's whole UI (React, better-auth's client, svc, the app)",
          kib(frontend.templateUiGzipBytes),
          ratio(frontend.templateUiGzipBytes / frontend.reactGzipBytes),
          "",
        ],
      ],
    ),
  ].join("\n");
}

/** Issue 27's goal: the registry costs the REST read at most 2 %. */
const REGISTRY_READ_GOAL = 0.98;

function registrySection({ registry }: Results): string {
  // A results.json from before this scenario existed has no figures for it.
  if (registry === undefined) return "";
  const rate = (value: number) => `${count(value)} documents/s`;
  const docs = registry.docsPerSecond;
  const base = registry.baselineDocsPerSecond;
  return [
    "## 10. Shard registry and backups",
    "",
    "Each shard reports itself to the registry from its alarm, at most once per interval (default 10 s) after " +
      "a write; a call only notes what it wrote. Measured: the same shard class with the registry on and off " +
      "(`createShard({ registry: false })`), interleaved in one run, for the REST read and an RPC write of one " +
      "document; and the first call into a new shard (which records the shard's creation and arms its first report).",
    "",
    table(
      ["target", "req/s", "p50", "p99", "errors"],
      registry.figures.map((f) => [
        f.name,
        count(f.requestsPerSecond),
        `${f.p50Ms} ms`,
        `${f.p99Ms} ms`,
        count(f.errors),
      ]),
    ),
    "",
    table(
      ["measure", "on / off", "goal"],
      [
        [
          "REST read throughput",
          ratio(registry.readRatio),
          `≥ ${ratio(REGISTRY_READ_GOAL)}: ${verdict(registry.readRatio >= REGISTRY_READ_GOAL)}`,
        ],
        ["RPC write throughput", ratio(registry.writeRatio), ""],
        [
          "first call into a new shard (median latency)",
          `${registry.newShardMs.on.toFixed(1)} / ${registry.newShardMs.off.toFixed(1)} ms`,
          "",
        ],
      ],
    ),
    "",
    `Backups of one shard of ${count(registry.documents)} documents (~270 bytes each), through the admin routes ` +
      "(median of 3 runs; export and import stream over loopback HTTP, R2 is Miniflare's local bucket), each " +
      "against a baseline of the same run:",
    "",
    table(
      ["operation", "throughput", "baseline", "ratio"],
      [
        [
          "export (GET shards/:key/export)",
          rate(docs.export),
          `paged reads, 100 a page (studio browse route): ${rate(base.pagedRead)}`,
          ratio(docs.export / base.pagedRead),
        ],
        [
          "import into an empty shard (POST shards/:key/import)",
          rate(docs.import),
          `inserts by a mutation, 5,000 a call: ${rate(base.mutationInsert)}`,
          ratio(docs.import / base.mutationInsert),
        ],
        [
          "backup to R2 (POST shards/:key/backup)",
          rate(docs.backupToR2),
          `export: ${rate(docs.export)}`,
          ratio(docs.backupToR2 / docs.export),
        ],
        [
          "restore from R2 under a new key (POST shards/:key/restore)",
          rate(docs.restoreFromR2),
          `import: ${rate(docs.import)}`,
          ratio(docs.restoreFromR2 / docs.import),
        ],
      ],
    ),
    "",
    `Listing ${count(registry.listPageMs.shards)} shards: a page of 50 (every partition read once and merged) took ` +
      `${registry.listPageMs.page.toFixed(1)} ms, a search page ${registry.listPageMs.search.toFixed(1)} ms (medians of 15).`,
  ].join("\n");
}

/**
 * BENCHMARKS.md from one run's results: the at-a-glance table of issues 32
 * and 29 first, then a section per scenario. `BENCH_NPM_TEST_SECONDS` (CI's
 * `npm test` time, which the bench does not measure) fills that row when set.
 *
 * @example
 * ```ts
 * await writeFile("BENCHMARKS.md", renderReport(results));
 * ```
 */
export function renderReport(results: Results): string {
  const { machine } = results;
  return [
    "# Benchmarks",
    "",
    "Produced by `npm run bench` (bench/run.ts), which rewrites this file (and bench/results.json, the raw figures;",
    "`npm run bench -- transport gates` runs chosen scenarios and prints JSON instead). Every HTTP figure is",
    "measured against the bench worker (bench/app) bundled as `wrangler deploy` bundles it and served by workerd",
    "through Miniflare (local D1 and SQLite Durable Objects, in memory), on loopback, with autocannon, after a",
    "warm-up, over interleaved rounds (5; 27 in transport and gates, whose CPU ratios judge goals and spread by",
    "±5 % a round, bench/lib/load.ts; or `BENCH_ROUNDS`; each round starts one target later), reporting",
    "medians; ratios are medians of per-round ratios. Not `wrangler dev`: its extra proxy and per-request logging",
    "cost more CPU than the worker under test (~375 req/s for the REST read), which buried the differences in",
    "noise. Nor through Miniflare's entry worker (since 2026-12-06): requests go to the worker's own socket in",
    "workerd, as a deployed worker is reached. The entry worker, which serves Miniflare's URL, is JavaScript in the",
    "measured workerd that parsed, copied and re-sent every request before the worker saw it: 0.15 ms of CPU per",
    "request, the same for every target and 37 % of what the bench measured, so it diluted every ratio (the REST",
    "read 1.08× the hand-written route through it, 1.12× without; bench/lib/bench-app.ts). Figures from before",
    "that date include it. As deployed, the call log store runs apart from the worker (a workerd process of its own), and",
    "the worker's workerd has CPU 0",
    "to itself while the load generator, Miniflare (which reads the workers' console) and the log store share the",
    "other cores (bench/lib/bench-app.ts). Absolute numbers say little on a shared machine: quote the ratios, which",
    "compare targets measured side by side in the same run. Where CPU per request is the measure (transport,",
    "gates, observability, search), the worker's isolate is garbage-collected before each measured window and",
    "again inside it once its load stopped (`POST /bench/gc`, workerd started with `--expose-gc`), so a target's",
    "CPU holds the collection of its own garbage and never one the target before it left due: without it a 3 s",
    "round caught or missed a major collection of 150–400 ms, and one code's rounds spread by up to 0.7×.",
    "",
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB; Node ${machine.node}; workerd ${machine.workerd}. ` +
      `Date: ${machine.date}. Whole run: ${results.totalSeconds} s.` +
      mergedRuns(results)
        .map(
          (run) =>
            ` Measured since, in one run of \`npm run bench -- --merge ${(run.ran ?? run.scenarios).join(" ")}\` (${run.date}, ${run.seconds} s): ${run.scenarios.join(", ")}.`,
        )
        .join(""),
    "",
    goalsSection(results, npmTestSeconds()),
    "",
    transportSection(results.transport, results.registry),
    "",
    listsSection(results.lists),
    "",
    profileSection(results),
    "",
    gatesSection(results.gates, results.rateLimit),
    "",
    apiKeysSection(results.apiKeys),
    "",
    rlsSection(results),
    "",
    studioSection(results.studio),
    "",
    searchSection(results.search),
    "",
    authSection(results),
    "",
    adminSection(results),
    "",
    rateLimitSection(results),
    "",
    codegenSection(results),
    "",
    bundleSection(results),
    "",
    fanOutSection(results),
    "",
    frontendSection(results),
    "",
    registrySection(results),
    "",
    shardsSection(results.shards),
    "",
    observabilitySection(results.observability),
    "",
    migrationsSection(results),
    "",
    harnessSection(results.harness),
    "",
    storageSection(results.storage),
    "",
    schedulerSection(results.scheduler),
    "",
  ].join("\n");
}
