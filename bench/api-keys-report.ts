import { count, ratio, table, verdict } from "./lib/format.ts";
import type { ApiKeysResult } from "./scenarios/api-keys.ts";

/** Issue 31's goal: a REST read with an API key within 10 % of the same read with no identity. */
const API_KEY_GOAL = 0.9;

const TITLE = "## 2a. API keys";

/**
 * BENCHMARKS.md's API key section (a note when results from before the
 * scenario have none), in its own file as the studio's is.
 *
 * @example apiKeysSection(results.apiKeys) // "## 2a. API keys\n\n…"
 */
export function apiKeysSection(apiKeys: ApiKeysResult | undefined): string {
  if (apiKeys === undefined) return [TITLE, "", "Not measured in this run."].join("\n");
  return [
    TITLE,
    "",
    "The REST read of section 1 with no identity, with a better-auth session cookie " +
      "(`sessionIdentity(auth)`), and with an API key (`x-api-key`, resolved by " +
      "`apiKeyIdentity(auth, { otherwise: sessionIdentity(auth) })`, its row cached per isolate for 1 s), " +
      "the last also behind its per-key limit (`apiKeyRateLimit`, a bucket that never refuses).",
    "",
    table(
      ["target", "req/s (median)", "p50", "p99", "non-2xx"],
      apiKeys.figures.map((f) => [
        f.name,
        count(f.requestsPerSecond),
        `${f.p50Ms} ms`,
        `${f.p99Ms} ms`,
        String(f.errors),
      ]),
    ),
    "",
    table(
      ["throughput against no identity", "measured", "goal", ""],
      [
        ["API key", ratio(apiKeys.apiKeyVsNoIdentity), `≥ ${ratio(API_KEY_GOAL)}`],
        ["API key, per-key limit", ratio(apiKeys.apiKeyLimitedVsNoIdentity), "", ""],
        ["session cookie", ratio(apiKeys.sessionVsNoIdentity), "", ""],
      ].map((row, index) =>
        index === 0 ? [...row, verdict(apiKeys.apiKeyVsNoIdentity >= API_KEY_GOAL)] : row,
      ),
    ),
  ].join("\n");
}
