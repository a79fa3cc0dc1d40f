import type { Rejoin } from "./await-scope.ts";
import { CallScope, failureOf, runInScope, type ShardObservation } from "./call-scope.ts";
import { installConsoleCapture } from "./console-capture.ts";

/** How a shard-side run ended, with what was observed when the worker asked for it. */
export type ObservedRun<T> =
  | { ok: true; value: T; observation?: ShardObservation }
  | { ok: false; thrown: unknown; observation?: ShardObservation };

/**
 * Runs a call inside a shard and, when the worker records calls (`observe`),
 * captures the handler's console lines and the thrown value's message and
 * stack for the record. Lines are found through the call's await chain
 * (`await-scope.ts` says why, and what that finds); `work` gets the
 * {@link Rejoin} its storage transactions run their callbacks through, or
 * `undefined` when the call is not recorded. The stack stays with the
 * record: what the client gets is built from the error code alone.
 *
 * @example
 * ```ts
 * const run = await observeRun(call.record, (rejoin) =>
 *   dispatcher.run(path, procedure, args, { ...call, rejoin }),
 * );
 * ```
 */
export function observeRun<T>(
  observe: boolean | undefined,
  work: (rejoin: Rejoin | undefined) => Promise<T>,
): Promise<ObservedRun<T>> {
  if (observe !== true) return runUnobserved(work);
  installConsoleCapture();
  const scope = new CallScope();
  // `then`, not an `async` wrapper: one promise a call less on every recorded call.
  return runInScope(scope, () => work((inner) => runInScope(scope, inner))).then(
    (value): ObservedRun<T> =>
      // Most calls print nothing: then nothing more travels back with the answer.
      scope.lines.length === 0 && scope.dropped === 0
        ? { ok: true, value }
        : { ok: true, value, observation: scope.observation() },
    (thrown): ObservedRun<T> => {
      scope.failure = failureOf(thrown);
      return { ok: false, thrown, observation: scope.observation() };
    },
  );
}

/** `work`'s end as an {@link ObservedRun}, thrown or rejected alike; no `async` frame of its own. */
function runUnobserved<T>(work: (rejoin: undefined) => Promise<T>): Promise<ObservedRun<T>> {
  let running: Promise<T>;
  try {
    running = work(undefined);
  } catch (thrown) {
    return Promise.resolve({ ok: false, thrown });
  }
  return running.then(ranOk, ranFailed) as Promise<ObservedRun<T>>;
}

const ranOk = <T>(value: T): ObservedRun<T> => ({ ok: true, value });
const ranFailed = (thrown: unknown): ObservedRun<never> => ({ ok: false, thrown });
