/** Work another request finishes: it sets `settled` once its answer (or failure) is in. */
export interface Settling {
  readonly settled: boolean;
}

/**
 * Reads a waiter's answer once its wait ended: `settled` is `false` when the
 * deadline passed first. A module-level function, not a closure: a waiter
 * passes `work` and `index` back to it (see {@link whenSettled}).
 */
export type ReadSettled<W extends Settling, T> = (work: W, index: number, settled: boolean) => T;

/**
 * One call waiting for a {@link Settling}: what its timer callback needs, in
 * one object, so a wait makes no closure of its own. (A bundle built with
 * `keepNames`, wrangler's default, named each per-call arrow with a
 * `defineProperty` call: 0.65 % of the exact gate's CPU profile samples.)
 */
class Waiter<W extends Settling, T> {
  readonly work: W;
  readonly index: number;
  readonly deadline: number;
  readonly read: ReadSettled<W, T>;
  readonly resolve: (answer: T) => void;
  readonly reject: (error: unknown) => void;

  constructor(
    work: W,
    index: number,
    deadline: number,
    read: ReadSettled<W, T>,
    resolve: (answer: T) => void,
    reject: (error: unknown) => void,
  ) {
    this.work = work;
    this.index = index;
    this.deadline = deadline;
    this.read = read;
    this.resolve = resolve;
    this.reject = reject;
  }

  /** Ends the wait with what `read` makes of it, or with what `read` threw. */
  answer(settled: boolean): void {
    try {
      this.resolve(this.read(this.work, this.index, settled));
    } catch (error) {
      this.reject(error);
    }
  }
}

/** A waiter's timer: answers once the work settled or the deadline passed, else looks again in 1 ms. */
function look<W extends Settling, T>(waiter: Waiter<W, T>): void {
  if (waiter.work.settled) {
    waiter.answer(true);
    return;
  }
  const left = waiter.deadline - Date.now();
  if (left <= 0) {
    waiter.answer(false);
    return;
  }
  setTimeout(look, Math.min(1, left), waiter);
}

/** The {@link ReadSettled} of a plain wait: whether the work settled in time. */
function settledInTime(_work: Settling, _index: number, settled: boolean): boolean {
  return settled;
}

/**
 * Settles once `work.settled` is true, with `true`, or once `deadline` (ms
 * since the epoch) has passed without it, with `false`; never rejects. It
 * looks first after `firstCheckMs` (at least 1 ms), then every millisecond,
 * each time from a timer of the calling request.
 *
 * Why not await a promise that the other request settles: a call waiting for
 * work that another request does (a coalesced store call, a lease request)
 * would then be resumed by that request's I/O. workerd hands such a
 * continuation back to the waiting request, but under sustained load it does
 * not hold: in `npm run bench`'s gates scenario, after some 130,000 coalesced
 * calls in one isolate, store calls stopped being answered and the answers
 * that followed failed with "Cannot perform I/O on behalf of a different
 * request" (BENCHMARKS.md, section 1a). Each call waking on its own timers
 * and reading a plain field never crosses requests: 226,447 and 182,536
 * exact-gated requests in a row answered 2xx in two runs.
 *
 * @example
 * ```ts
 * const answered = await whenSettled(batch, 2, batch.openedAt + 1000);
 * if (!answered) throw storeError("api", noAnswer(1000));
 * ```
 */
export function whenSettled(
  work: Settling,
  firstCheckMs: number,
  deadline: number,
): Promise<boolean> {
  return readWhenSettled(work, 0, firstCheckMs, deadline, settledInTime);
}

/**
 * {@link whenSettled} that answers `read(work, index, settled)` (or rejects
 * with what it throws) instead of the bare flag: a coalesced call reads its
 * own result out of its batch in the same step, with no promise or closure of
 * its own on top of the wait's one promise.
 *
 * @example
 * ```ts
 * const result = await readWhenSettled(batch, 3, batch.expectedAt - now, now + 1000, resultOf);
 * ```
 */
export function readWhenSettled<W extends Settling, T>(
  work: W,
  index: number,
  firstCheckMs: number,
  deadline: number,
  read: ReadSettled<W, T>,
): Promise<T> {
  if (work.settled) {
    try {
      return Promise.resolve(read(work, index, true));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return new Promise<T>((resolve, reject) => {
    const first = Math.max(1, Math.min(firstCheckMs, deadline - Date.now()));
    setTimeout(look, first, new Waiter(work, index, deadline, read, resolve, reject));
  });
}
