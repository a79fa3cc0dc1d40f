import { deserializeError, type SerializedError } from "./svc-error.ts";

/**
 * What a Durable Object's RPC method answers for work that may fail: the
 * value, or the error to raise again on the caller's side. A thrown error
 * would cross JS RPC without its code, so svc's shard, scheduler, storage
 * and migration methods answer this, and the worker deserializes `error`.
 *
 * @example
 * ```ts
 * const answer: Outcome<number> = await shard.importBegin();
 * if (!answer.ok) throw deserializeError(answer.error);
 * ```
 */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

/**
 * The value of an {@link Outcome}, or its error thrown here with the same
 * code and message, so a Durable Object's failure reads, on the worker's
 * side, as if it had been thrown there.
 *
 * @example
 * ```ts
 * const importId = unwrap(await shard.importBegin());
 * ```
 */
export function unwrap<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw deserializeError(outcome.error);
  return outcome.value;
}
