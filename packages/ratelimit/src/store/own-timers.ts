/** Work another request finishes: it sets `settled` once its answer (or failure) is in. */
export interface Settling {
  readonly settled: boolean;
}

/**
 * One call waiting for a {@link Settling}: what its timer callback needs, in
 * one object, so a wait makes no closure of its own. (A bundle built with
 * `keepNames`, wrangler's default, named each per-call arrow with a
 * `defineProperty` call: 0.65 % of the exact gate's CPU profile samples.)
 */
class Waiter {
  readonly work: Settling;
  readonly deadline: number;
  readonly resolve: (settled: boolean) => void;

  constructor(work: Settling, deadline: number, resolve: (settled: boolean) => void) {
    this.work = work;
    this.deadline = deadline;
    this.resolve = resolve;
  }
}

/** A waiter's timer: answers once the work settled or the deadline passed, else looks again in 1 ms. */
function look(waiter: Waiter): void {
  if (waiter.work.settled) {
    waiter.resolve(true);
    return;
  }
  const left = waiter.deadline - Date.now();
  if (left <= 0) {
    waiter.resolve(false);
    return;
  }
  setTimeout(look, Math.min(1, left), waiter);
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
  if (work.settled) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const first = Math.max(1, Math.min(firstCheckMs, deadline - Date.now()));
    setTimeout(look, first, new Waiter(work, deadline, resolve));
  });
}
