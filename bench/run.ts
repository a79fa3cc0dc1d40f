import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describeMachine } from "./lib/machine.ts";
import { RESULTS_FILE, type Results, renderReport, withKeptPart } from "./report.ts";
import { mergedRuns, withMergedRun } from "./results.ts";
import { measureAdmin } from "./scenarios/admin.ts";
import { measureApiKeys } from "./scenarios/api-keys.ts";
import { measureAuth } from "./scenarios/auth.ts";
import { measureBundle } from "./scenarios/bundle.ts";
import { measureCodegen } from "./scenarios/codegen.ts";
import { measureFanOut } from "./scenarios/fanout.ts";
import { measureFrontend } from "./scenarios/frontend.ts";
import { measureGates } from "./scenarios/gates.ts";
import { measureHarness } from "./scenarios/harness.ts";
import { measureLists } from "./scenarios/lists.ts";
import { measureMigrations } from "./scenarios/migrations.ts";
import { measureObservability } from "./scenarios/observability.ts";
import { PROFILES, type ProfileReport, profileScenario } from "./scenarios/profile.ts";
import { measureRateLimiter } from "./scenarios/ratelimit.ts";
import { measureRegistry } from "./scenarios/registry.ts";
import { measureRls } from "./scenarios/rls.ts";
import { measureScheduler } from "./scenarios/scheduler.ts";
import { measureSearch } from "./scenarios/search.ts";
import { measureShards } from "./scenarios/shards.ts";
import { measureStorage } from "./scenarios/storage.ts";
import { measureStudio } from "./scenarios/studio.ts";
import { measureTransports } from "./scenarios/transport.ts";

const log = (line: string) => console.error(line);

type Log = typeof log;

/** Every scenario in report order: its name on the command line, its title, how to run it. */
const SCENARIOS: {
  [K in Exclude<keyof Results, "machine" | "totalSeconds" | "profiles" | "merged">]: [
    string,
    (log: Log) => Promise<Results[K]>,
  ];
} = {
  transport: ["REST vs RPC vs hand-written route", measureTransports],
  lists: ["a long answer: 100 rows, svc REST vs hand-written route", measureLists],
  gates: ["gate costs: rate limit, identity", measureGates],
  apiKeys: ["REST read with an API key against no identity and a session", measureApiKeys],
  auth: ["sign-up and sign-in: svc vs plain better-auth", measureAuth],
  rls: ["row-level security with 100,000 foreign rows", measureRls],
  studio: ["data studio: a million documents, and view as user", measureStudio],
  search: ["text search at 100,000 and 1,000,000 documents; insert cost", measureSearch],
  admin: ["admin user list over 1,000,000 users", measureAdmin],
  rateLimit: ["rate limiter accuracy and overhead", measureRateLimiter],
  codegen: ["codegen for 1,000 procedures", (log) => measureCodegen(1000, log)],
  bundle: ["worker bundle and start-up", () => measureBundle()],
  fanOut: ["live-query fan-out against polling", measureFanOut],
  observability: [
    "call records: recording cost, store writes, queries over 1,000,000",
    measureObservability,
  ],
  frontend: ["React: browser to browser, and what the UI weighs", measureFrontend],
  migrations: ["data migrations and index builds", measureMigrations],
  registry: ["shard registry cost; export, import and R2 backup throughput", measureRegistry],
  shards: ["1,000 shards: memory, cold calls, throughput as shards grow", measureShards],
  harness: ["@svc/testing: the harness's per-test overhead", measureHarness],
  storage: ["file storage: upload, download, getUrl, 100 MiB memory", measureStorage],
  scheduler: ["scheduled functions: lateness, drain, runAfter cost", measureScheduler],
};

/**
 * `npm run bench`: runs every measurement on this machine and rewrites
 * BENCHMARKS.md. Figures are ratios against baselines measured in the same run.
 * `npm run bench -- transport gates` runs only the named scenarios and prints
 * their results as JSON, leaving BENCHMARKS.md alone (a partial run is not a
 * report). A scenario that fails is reported and the others still run; the
 * results so far are printed as JSON and the exit code is 1.
 * `npm run bench -- --merge transport gates` runs them and puts their figures
 * into the report instead (mergeIntoReport).
 * `npm run bench -- --profile transport` prints a CPU profile's table instead
 * (bench/scenarios/profile.ts).
 */
async function main(): Promise<void> {
  if (process.argv[2] === "--profile") {
    const name = process.argv[3] ?? "";
    if (!(name in PROFILES)) {
      throw new Error(`unknown profile ${name}; known: ${Object.keys(PROFILES).join(", ")}`);
    }
    const report = await profileScenario(name as keyof typeof PROFILES, log);
    console.log(report.tables);
    await rewriteProfile(name as keyof typeof PROFILES, report);
    return;
  }
  const started = Date.now();
  const names = Object.keys(SCENARIOS) as (keyof typeof SCENARIOS)[];
  const merge = process.argv[2] === "--merge";
  const wanted = process.argv.slice(merge ? 3 : 2);
  const unknown = wanted.filter((name) => !names.includes(name as never));
  if (unknown.length > 0) {
    throw new Error(`unknown scenario ${unknown.join(", ")}; known: ${names.join(", ")}`);
  }
  const chosen = wanted.length === 0 ? names : names.filter((name) => wanted.includes(name));
  const results: Partial<Results> = { machine: describeMachine() };
  const failed: string[] = [];
  for (const [index, name] of chosen.entries()) {
    const [title, measure] = SCENARIOS[name];
    log(`${index + 1}/${chosen.length} ${title}`);
    const scenarioStarted = Date.now();
    try {
      (results as Record<string, unknown>)[name] = await measure(log);
      log(`    done in ${Math.round((Date.now() - scenarioStarted) / 1000)} s`);
    } catch (error) {
      // One broken scenario must not throw away the minutes the others took.
      failed.push(name);
      log(`    FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  results.totalSeconds = Math.round((Date.now() - started) / 1000);
  if (merge && wanted.length > 0 && failed.length === 0) {
    await mergeIntoReport(results, chosen);
    return;
  }
  if (wanted.length > 0 || failed.length > 0) {
    console.log(JSON.stringify(results, null, 2));
    if (failed.length > 0) {
      log(`${failed.join(", ")} failed: BENCHMARKS.md left as it was (results above)`);
      process.exitCode = 1;
    }
    return;
  }
  const file = path.resolve(import.meta.dirname, "../BENCHMARKS.md");
  // Profiles are taken by their own command (--profile); a full run keeps the last ones.
  const kept = await readFile(RESULTS_FILE, "utf8").then(
    (text) => (JSON.parse(text) as Results).profiles,
    () => undefined,
  );
  if (kept) results.profiles = kept;
  // Sections measured by other commands (the release test's scaffolded app) sit after
  // the release marker; a bench run keeps them as they are (withKeptPart).
  const previous = await readFile(file, "utf8").catch(() => "");
  await writeFile(file, withKeptPart(renderReport(results as Results), previous));
  // The raw figures too, so a change of wording re-renders without re-measuring (bench/render.ts).
  await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${file} and ${RESULTS_FILE} (${results.totalSeconds} s)`);
}

/**
 * `npm run bench -- --merge transport gates`: puts the chosen scenarios'
 * figures in place of the full run's in bench/results.json and re-renders
 * BENCHMARKS.md, which names the merged run (its date and length), so a goal
 * table of those scenarios comes from one run without the whole bench.
 */
async function mergeIntoReport(measured: Partial<Results>, chosen: string[]): Promise<void> {
  const results = JSON.parse(await readFile(RESULTS_FILE, "utf8")) as Results;
  for (const name of chosen)
    (results as unknown as Record<string, unknown>)[name] = (measured as Record<string, unknown>)[
      name
    ];
  results.merged = withMergedRun(mergedRuns(results), {
    scenarios: chosen,
    date: measured.machine?.date ?? new Date().toISOString().slice(0, 10),
    seconds: measured.totalSeconds ?? 0,
  });
  await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  const file = path.resolve(import.meta.dirname, "../BENCHMARKS.md");
  const previous = await readFile(file, "utf8").catch(() => "");
  await writeFile(file, withKeptPart(renderReport(results), previous));
  log(`merged ${chosen.join(", ")} into ${file} and ${RESULTS_FILE}`);
}

/**
 * Puts a profile into bench/results.json (the last full run's figures stay)
 * and re-renders BENCHMARKS.md from it, so its profile section is reproduced
 * by the one command that took it.
 */
async function rewriteProfile(name: keyof typeof PROFILES, report: ProfileReport): Promise<void> {
  const results = JSON.parse(await readFile(RESULTS_FILE, "utf8")) as Results;
  results.profiles = { ...results.profiles, [name]: report };
  await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  const file = path.resolve(import.meta.dirname, "../BENCHMARKS.md");
  const previous = await readFile(file, "utf8").catch(() => "");
  await writeFile(file, withKeptPart(renderReport(results), previous));
  log(`wrote the ${name} profile into ${file} and ${RESULTS_FILE}`);
}

await main();
