import { vi } from "vitest";
import type { CallRecord } from "../src/index.ts";

/**
 * Watches `console.log` for svc's call lines (what Workers Logs and `wrangler
 * tail` get); other lines still print. Restore with `vi.restoreAllMocks()`.
 *
 * @example
 * ```ts
 * const watched = watchCallLines();
 * await store.write(bodies, { console: true });
 * watched.records()[0].requestId;
 * ```
 */
export function watchCallLines(): { lines: string[]; records: () => CallRecord[] } {
  const lines: string[] = [];
  const forward = console.log;
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    const [first] = args;
    if (typeof first === "string" && first.includes('"svc":"call"')) lines.push(first);
    else forward.apply(console, args);
  });
  return { lines, records: () => lines.map((line) => JSON.parse(line) as CallRecord) };
}
