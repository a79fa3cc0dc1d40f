/**
 * The procedure timeout of a shard's calls, kept by one timer per shard
 * instead of one per call. Every call's deadline goes into a set; the one
 * timer is armed for the earliest deadline and, when it fires, answers the
 * calls past theirs and re-arms for the next. A call that settles only leaves
 * the set: no timer is set or cleared per call (a timer and its clearing were
 * the REST read's costliest svc-only work in its CPU profile, issue 50).
 *
 * Per shard object, not per isolate: a Durable Object's calls share its I/O
 * context, so its timer may answer any of them; another object's may not.
 * The timer can outlive the last call by at most one timeout (it is left
 * armed rather than cleared per call), then it stops.
 *
 * @example
 * ```ts
 * const deadlines = new Deadlines();
 * const run = await deadlines.race(work(), call.timeoutMs, () => lateAnswer);
 * ```
 */
export class Deadlines {
  readonly #pending = new Set<Pending>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (`Infinity` when none is armed). */
  #armedAt = Number.POSITIVE_INFINITY;

  /**
   * `work`'s value, or `late()`'s when `timeoutMs` passes first (the work may
   * still finish: a mutation may still commit). No `timeoutMs`: `work` as is.
   */
  race<T>(work: Promise<T>, timeoutMs: number | undefined, late: () => T): Promise<T> {
    if (timeoutMs === undefined) return work;
    return new Promise<T>((resolve, reject) => {
      const entry = new Pending(Date.now() + timeoutMs, resolve, late);
      this.#pending.add(entry);
      if (entry.deadline < this.#armedAt) this.#arm(entry.deadline);
      work.then(
        (value) => {
          this.#pending.delete(entry);
          resolve(value);
        },
        (error: unknown) => {
          this.#pending.delete(entry);
          reject(error);
        },
      );
    });
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedAt = at;
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, at - Date.now()));
  }

  #expire(): void {
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.#pending) {
      if (entry.deadline <= now) {
        this.#pending.delete(entry);
        entry.late();
      } else if (entry.deadline < next) next = entry.deadline;
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  }
}

/**
 * A call waiting for its answer, and how it is answered when its deadline
 * passes. A class, not an object with a `late` arrow: a bundle built with
 * `keepNames` (wrangler's default) would name that arrow with a
 * `defineProperty` call on every call.
 */
class Pending {
  readonly deadline: number;
  readonly #resolve: (value: never) => void;
  readonly #late: () => unknown;

  constructor(deadline: number, resolve: (value: never) => void, late: () => unknown) {
    this.deadline = deadline;
    this.#resolve = resolve;
    this.#late = late;
  }

  /** Answers the call with its late answer. */
  late(): void {
    this.#resolve(this.#late() as never);
  }
}
