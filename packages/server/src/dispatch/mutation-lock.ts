/**
 * Runs mutations of one shard one at a time, in arrival order. SQLite
 * transactions in a Durable Object span awaits, so two mutations that both
 * await I/O must not interleave inside one another's transaction.
 */
export class MutationLock {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
