import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describeMachine } from "./lib/machine.ts";
import { type Results, renderReport } from "./report.ts";
import { measureAuth } from "./scenarios/auth.ts";
import { measureBundle } from "./scenarios/bundle.ts";
import { measureCodegen } from "./scenarios/codegen.ts";
import { measureGates } from "./scenarios/gates.ts";
import { measureRateLimiter } from "./scenarios/ratelimit.ts";
import { measureTransports } from "./scenarios/transport.ts";

const log = (line: string) => console.error(line);

/**
 * `npm run bench`: runs every measurement on this machine and rewrites
 * BENCHMARKS.md. Figures are ratios against baselines measured in the same run.
 */
async function main(): Promise<void> {
  const started = Date.now();
  const results: Results = { machine: describeMachine() } as Results;
  log("1/7 REST vs RPC vs hand-written route");
  results.transport = await measureTransports(log);
  log("2/7 gate costs: rate limit, identity");
  results.gates = await measureGates(log);
  log("3/7 sign-up and sign-in: svc vs plain better-auth");
  results.auth = await measureAuth(log);
  log("4/7 rate limiter accuracy and overhead");
  results.rateLimit = await measureRateLimiter(log);
  log("6/7 codegen for 1,000 procedures");
  results.codegen = await measureCodegen(1000, log);
  log("7/7 worker bundle and start-up");
  results.bundle = await measureBundle();
  results.totalSeconds = Math.round((Date.now() - started) / 1000);
  const file = path.resolve(import.meta.dirname, "../BENCHMARKS.md");
  await writeFile(file, renderReport(results));
  log(`wrote ${file} (${results.totalSeconds} s)`);
}

await main();
