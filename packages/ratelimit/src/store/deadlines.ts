/**
 * `promise`, or a rejection with `error()` once `ms` have passed without it
 * settling: how every wait for the store is bounded, so a store that never
 * answers costs a caller `ms` at most.
 *
 * @example
 * ```ts
 * const reply = await within(object.limit(batch), 1000, () => noAnswer(1000));
 * ```
 */
export function within<T>(promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  // One promise and one timer, settled by whichever comes first: every exact decision waits
  // through this, and `Promise.race` in an async function made three more promises a call.
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(error()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (cause: unknown) => {
        clearTimeout(timer);
        reject(cause);
      },
    );
  });
}
