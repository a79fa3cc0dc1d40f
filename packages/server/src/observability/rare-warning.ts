/** How often a {@link RareWarning} prints by default: once a minute per isolate. */
const RARE_WARNING_EVERY_MS = 60_000;

/** Where a {@link RareWarning} prints: `console.error` unless told otherwise. */
export type WarningPrinter = (line: string, detail?: unknown) => void;

/**
 * A warning about a lasting condition (a store that does not answer), printed
 * at most once per `everyMs` in an isolate, with the number of reports left
 * out since the last line. One line per failed call would print the same
 * stack thousands of times a second during an outage, and under `wrangler
 * dev` that output is what stalled the whole app: workerd blocks writing to
 * a console its parent cannot read fast enough, so a burst of 1,000 socket
 * opens whose rate-limit store answered late printed 564 stack traces and
 * then answered nothing for minutes (examples/app/test/soak/fan-out.test.ts,
 * run beside three busy loops on 2 cores).
 *
 * @example
 * ```ts
 * const storeDown = new RareWarning();
 * try { await store.call(); } catch (error) {
 *   storeDown.report("svc: the store is unavailable; calls are admitted", error);
 * }
 * ```
 */
export class RareWarning {
  readonly #everyMs: number;
  readonly #print: WarningPrinter;
  readonly #clock: () => number;
  #printedAt = Number.NEGATIVE_INFINITY;
  #leftOut = 0;

  constructor(options: { everyMs?: number; print?: WarningPrinter; clock?: () => number } = {}) {
    this.#everyMs = options.everyMs ?? RARE_WARNING_EVERY_MS;
    // Looked up per line, not bound here: a console patched later (call capture) still sees it.
    this.#print =
      options.print ??
      ((line, detail) =>
        detail === undefined ? console.error(line) : console.error(line, detail));
    this.#clock = options.clock ?? Date.now;
  }

  /**
   * Prints `line` (and `detail`, an error as a stack) unless a line was
   * printed less than `everyMs` ago; then only counts it. The next line
   * printed says how many were left out. Answers whether it printed.
   */
  report(line: string, detail?: unknown): boolean {
    const now = this.#clock();
    if (now - this.#printedAt < this.#everyMs) {
      this.#leftOut++;
      return false;
    }
    const leftOut = this.#leftOut;
    this.#leftOut = 0;
    this.#printedAt = now;
    this.#print(
      leftOut === 0 ? line : `${line} (${leftOut} more since the last such line)`,
      detail,
    );
    return true;
  }
}
