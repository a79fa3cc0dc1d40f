import { CallScope, failureOf, runInScope, type ShardObservation } from "./call-scope.ts";
import { installConsoleCapture } from "./console-capture.ts";

/** How a shard-side run ended, with what was observed when the worker asked for it. */
export type ObservedRun<T> =
  | { ok: true; value: T; observation?: ShardObservation }
  | { ok: false; thrown: unknown; observation?: ShardObservation };

/**
 * Runs a call inside a shard and, when the worker records calls (`observe`),
 * captures the handler's console lines and the thrown value's message and
 * stack for the record. The stack stays with the record: what the client
 * gets is built from the error code alone.
 *
 * @example
 * ```ts
 * const run = await observeRun(call.record, () => dispatcher.run(path, procedure, args, call));
 * ```
 */
export async function observeRun<T>(
  observe: boolean | undefined,
  work: () => Promise<T>,
): Promise<ObservedRun<T>> {
  if (observe !== true) {
    try {
      return { ok: true, value: await work() };
    } catch (thrown) {
      return { ok: false, thrown };
    }
  }
  installConsoleCapture();
  const scope = new CallScope();
  try {
    const value = await runInScope(scope, work);
    // Most calls print nothing: then nothing more travels back with the answer.
    if (scope.lines.length === 0 && scope.dropped === 0) return { ok: true, value };
    return { ok: true, value, observation: scope.observation() };
  } catch (thrown) {
    scope.failure = failureOf(thrown);
    return { ok: false, thrown, observation: scope.observation() };
  }
}
