/**
 * Settles once `ready()` is true, with `true`, or once `deadline` (ms since
 * the epoch) has passed without it, with `false`; never rejects. It looks at
 * `ready()` first after `firstCheckMs` (at least 1 ms), then every
 * millisecond, each time from a timer of the calling request.
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
 * const answered = await whenReady(() => batch.settled, 2, batch.openedAt + 1000);
 * if (!answered) throw storeError("api", noAnswer(1000));
 * ```
 */
export function whenReady(
  ready: () => boolean,
  firstCheckMs: number,
  deadline: number,
): Promise<boolean> {
  if (ready()) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const check = () => {
      if (ready()) return resolve(true);
      const left = deadline - Date.now();
      if (left <= 0) return resolve(false);
      setTimeout(check, Math.min(1, left));
    };
    setTimeout(check, Math.max(1, Math.min(firstCheckMs, deadline - Date.now())));
  });
}
