import { existsSync } from "node:fs";
import path from "node:path";
import type { AppDescription } from "@svc/server/codegen";
import { unstable_readConfig } from "wrangler";
import { SvcCliError } from "../errors.ts";

const CONFIG_NAMES = ["wrangler.jsonc", "wrangler.json", "wrangler.toml"];

/**
 * Checks that Cloudflare will actually fire what `svc/crons.ts` and
 * `svc/queues.ts` declare: every job's schedule is in `triggers.crons` and
 * every consumed queue has a consumer entry, else `svc codegen` fails with
 * the line to add (a job without its trigger would silently never run).
 *
 * @example checkWranglerTriggers("examples/app", description);
 */
export function checkWranglerTriggers(
  appDir: string,
  description: Pick<AppDescription, "crons" | "queues">,
): void {
  const crons = description.crons ?? [];
  const queues = description.queues ?? [];
  if (crons.length === 0 && queues.length === 0) return;
  const file = CONFIG_NAMES.map((name) => path.join(appDir, name)).find(existsSync);
  if (file === undefined) {
    throw new SvcCliError(
      "WRANGLER_CONFIG_MISSING",
      `svc codegen: no wrangler config in ${appDir}`,
    );
  }
  const config = unstable_readConfig({ config: file }, { hideWarnings: true });
  const triggers = new Set(
    (config.triggers?.crons ?? []).map((c: string) => c.trim().split(/\s+/).join(" ")),
  );
  const missing = [...new Set(crons.map((job) => job.schedule))].filter((s) => !triggers.has(s));
  if (missing.length > 0) {
    const jobs = crons.filter((job) => missing.includes(job.schedule)).map((job) => job.name);
    throw new SvcCliError(
      "CRON_TRIGGER_MISSING",
      `svc codegen: cron job(s) ${jobs.join(", ")} would never run: ${path.basename(file)} has no trigger for ${missing.map((s) => JSON.stringify(s)).join(", ")}. Add:\n  "triggers": { "crons": [${[...triggers, ...missing].map((s) => JSON.stringify(s)).join(", ")}] }`,
    );
  }
  const consumed = new Set(
    (config.queues?.consumers ?? []).map((consumer: { queue: string }) => consumer.queue),
  );
  const unconsumed = queues.filter((q) => !consumed.has(q.queue)).map((q) => q.queue);
  if (unconsumed.length > 0) {
    throw new SvcCliError(
      "QUEUE_CONSUMER_MISSING",
      `svc codegen: svc/queues.ts consumes ${unconsumed.join(", ")}, but ${path.basename(file)} has no consumer for it. Add to "queues": { "consumers": [...] }:\n${unconsumed.map((q) => `  { "queue": ${JSON.stringify(q)}, "max_retries": 3 }`).join(",\n")}`,
    );
  }
}
