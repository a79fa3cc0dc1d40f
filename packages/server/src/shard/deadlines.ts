/**
 * The procedure timeout of a shard's calls, kept by one timer per shard
 * instead of one per call. Every call's deadline goes into a list; the one
 * timer is armed for the earliest deadline and, when it fires, answers the
 * calls past theirs and re-arms for the next. A call that settles only leaves
 * the list: no timer is set or cleared per call (a timer and its clearing were
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
 * const answer = await deadlines.race(work(), call.timeoutMs, () => lateAnswer, okAnswer, failedAnswer);
 * ```
 */
export class Deadlines {
  /**
   * The calls not yet settled, as a list each entry unlinks itself from: a
   * `Set`'s add and delete (an identity hash and a table per call) ranked in
   * the REST read's CPU profile; two pointer writes do not.
   */
  #first: Pending | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (`Infinity` when none is armed). */
  #armedAt = Number.POSITIVE_INFINITY;

  /**
   * `work`'s end as `ok` or `failed` make it, or `late()` when `timeoutMs`
   * passes first (the work may still finish: a mutation may still commit).
   * No `timeoutMs`: `work`'s end alone. The mapping runs in the race's own
   * `then`, so a caller adds no promise of its own to shape the answer.
   */
  race<T, R>(
    work: Promise<T>,
    timeoutMs: number | undefined,
    late: () => R,
    ok: (value: T) => R,
    failed: (error: unknown) => R,
  ): Promise<R> {
    if (timeoutMs === undefined) return work.then(ok, failed);
    return new Promise<R>((resolve, reject) => {
      const entry = new Pending(Date.now() + timeoutMs, resolve, late);
      this.#link(entry);
      if (entry.deadline < this.#armedAt) this.#arm(entry.deadline);
      work.then(
        (value) => {
          this.#unlink(entry);
          settleWith(resolve, reject, ok, value);
        },
        (error: unknown) => {
          this.#unlink(entry);
          settleWith(resolve, reject, failed, error);
        },
      );
    });
  }

  #link(entry: Pending): void {
    entry.next = this.#first;
    if (this.#first !== null) this.#first.previous = entry;
    this.#first = entry;
  }

  /** Takes `entry` out of the list; an entry already out (answered late, then settled) stays out. */
  #unlink(entry: Pending): void {
    if (entry.previous !== null) entry.previous.next = entry.next;
    else if (this.#first === entry) this.#first = entry.next;
    else return;
    if (entry.next !== null) entry.next.previous = entry.previous;
    entry.previous = null;
    entry.next = null;
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedAt = at;
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, at - Date.now()));
  }

  /** Answers every call past its deadline; re-arms for the earliest one left. */
  #expire(): void {
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    let entry = this.#first;
    while (entry !== null) {
      const following = entry.next;
      if (entry.deadline <= now) {
        this.#unlink(entry);
        entry.late();
      } else if (entry.deadline < next) next = entry.deadline;
      entry = following;
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  }
}

/** Resolves with `map(input)`, or rejects with what `map` threw: a thrown mapping never leaves a call hanging. */
function settleWith<I, R>(
  resolve: (value: R) => void,
  reject: (error: unknown) => void,
  map: (input: I) => R,
  input: I,
): void {
  try {
    resolve(map(input));
  } catch (error) {
    reject(error);
  }
}

/**
 * A call waiting for its answer, and how it is answered when its deadline
 * passes; linked into its {@link Deadlines}' list. A class, not an object
 * with a `late` arrow: a bundle built with `keepNames` (wrangler's default)
 * would name that arrow with a `defineProperty` call on every call.
 */
class Pending {
  readonly deadline: number;
  readonly #resolve: (value: never) => void;
  readonly #late: () => unknown;
  previous: Pending | null = null;
  next: Pending | null = null;

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
