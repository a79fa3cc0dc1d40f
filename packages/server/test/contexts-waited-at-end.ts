import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { afterAll } from "vitest";

/**
 * Makes a fresh execution context per request and waits for all of them
 * when the file ends: what the requests left under `waitUntil` (a call's
 * record, written about 100 ms after the call; a body still being counted)
 * then finishes inside the file that started it, not while vitest closes
 * the file's run (CONTRIBUTING.md, the teardown race). Call it at the top
 * level of a test file; read every answer's body, or its count never ends.
 *
 * @example
 * ```ts
 * const context = contextsWaitedAtEnd();
 * const response = await worker.fetch(request, env, context());
 * ```
 */
export function contextsWaitedAtEnd(): () => ExecutionContext {
  const contexts: ExecutionContext[] = [];
  afterAll(async () => {
    await Promise.all(contexts.map((ctx) => waitOnExecutionContext(ctx)));
  });
  return () => {
    const ctx = createExecutionContext();
    contexts.push(ctx);
    return ctx;
  };
}
