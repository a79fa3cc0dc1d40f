import { count } from "./format.ts";
import type { LoadFigures } from "./load.ts";

/** The columns of {@link loadRows}, without the rounds. */
export const LOAD_HEADER = ["target", "req/s (median)", "p50", "p99", "CPU / request", "non-2xx"];

/**
 * The rows of a load comparison's table, each target's rounds last when
 * `withRounds` (the reader can then see a ratio's spread).
 *
 * @example
 * ```ts
 * table([...LOAD_HEADER, "rounds (req/s)"], loadRows(transport.figures, true));
 * ```
 */
export function loadRows(figures: LoadFigures[], withRounds = false): string[][] {
  return figures.map((f) => [
    f.name,
    count(f.requestsPerSecond),
    `${f.p50Ms} ms`,
    `${f.p99Ms} ms`,
    f.cpuMsPerRequest === null ? "" : `${f.cpuMsPerRequest.toFixed(2)} ms`,
    String(f.errors),
    ...(withRounds ? [f.rounds.join(" / ")] : []),
  ]);
}

/**
 * `0.66 ms` of workerd CPU per request for the named target, or `?` when the
 * run has no such target or no CPU probe: notes quote it from the figures of
 * the same run.
 *
 * @example
 * ```ts
 * cpuOf(transport.figures, "svc REST (GET)"); // "0.66 ms"
 * ```
 */
export function cpuOf(figures: LoadFigures[], name: string): string {
  const cpu = figures.find((figure) => figure.name === name)?.cpuMsPerRequest;
  return cpu == null ? "?" : `${cpu.toFixed(2)} ms`;
}
