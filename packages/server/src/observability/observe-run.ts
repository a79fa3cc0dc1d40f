import type { Rejoin } from "./await-scope.ts";
import { CallScope, failureOf, runInScope, type ShardObservation } from "./call-scope.ts";
import { installConsoleCapture } from "./console-capture.ts";

/**
 * How a shard-side run's end becomes its answer: `ok` for its value,
 * `failed` for anything it threw, each given what was observed (`undefined`
 * when the call is not recorded, or recorded and printed nothing).
 */
export interface RunAnswers<T, R> {
  ok: (value: T, observation?: ShardObservation) => R;
  failed: (thrown: unknown, observation?: ShardObservation) => R;
}

/**
 * Turns the run's promise into its answer with one `then` of the caller's:
 * a shard races it against the call's deadline in that same step.
 */
export type SettleRun<T, R> = (
  running: Promise<T>,
  ok: (value: T) => R,
  failed: (thrown: unknown) => R,
) => Promise<R>;

/**
 * Runs a call inside a shard and answers its end as `answers` say. When the
 * worker records calls (`observe`), it captures the handler's console lines
 * and the thrown value's message and stack for the record. Lines are found
 * through the call's await chain (`await-scope.ts` says why, and what that
 * finds); `work` gets the {@link Rejoin} its storage transactions run their
 * callbacks through, or `undefined` when the call is not recorded. The stack
 * stays with the record: what the client gets is built from the error code
 * alone. `settle` makes the one `then` from the run to its answer, so a
 * call pays one promise between its handler and its RPC answer, not three.
 *
 * @example
 * ```ts
 * const answer = await observeRun(call.record, (rejoin) => dispatcher.run(path, procedure, args, { ...call, rejoin }),
 *   { ok: (value) => ({ ok: true, value }), failed: (thrown) => ({ ok: false, thrown }) },
 *   (running, ok, failed) => running.then(ok, failed));
 * ```
 */
export function observeRun<T, R>(
  observe: boolean | undefined,
  work: (rejoin: Rejoin | undefined) => Promise<T>,
  answers: RunAnswers<T, R>,
  settle: SettleRun<T, R>,
): Promise<R> {
  if (observe !== true) {
    let running: Promise<T>;
    try {
      running = work(undefined);
    } catch (thrown) {
      return Promise.resolve(answers.failed(thrown));
    }
    // The answers as they are: `then` hands each one argument, so no observation goes with it.
    return settle(running, answers.ok, answers.failed);
  }
  installConsoleCapture();
  const scope = new CallScope();
  return settle(
    runInScope(scope, () => work((inner) => runInScope(scope, inner))),
    (value) =>
      // Most calls print nothing: then nothing more travels back with the answer.
      scope.lines.length === 0 && scope.dropped === 0
        ? answers.ok(value)
        : answers.ok(value, scope.observation()),
    (thrown) => {
      scope.failure = failureOf(thrown);
      return answers.failed(thrown, scope.observation());
    },
  );
}
