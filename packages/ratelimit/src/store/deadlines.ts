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
export async function within<T>(promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Settles when `promise` settles or `ms` have passed, whichever comes first;
 * never rejects. For waiting on someone else's work without depending on it.
 *
 * @example
 * ```ts
 * await settledOrExpired(previousBatch.done, 1000); // then send ours, answered or not
 * ```
 */
export async function settledOrExpired(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([promise.then(ignore, ignore), expired]);
  clearTimeout(timer);
}

function ignore(): void {}
