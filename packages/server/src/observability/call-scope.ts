import {
  type Caller,
  type CallFailure,
  type ConsoleLine,
  type CronFacts,
  clip,
  type EntryPoint,
  type QueueFacts,
  RECORD_LIMITS,
} from "./record.ts";
import { redactArgs, scrubSecrets } from "./redact.ts";

/** What the entry point that claims a request says about the call. */
export interface CallFacts {
  entry: EntryPoint;
  route: string;
  shardKey: string | null;
  caller: Caller;
  args: unknown;
  queue: QueueFacts;
  cron: CronFacts;
}

/** A console line as captured: `time` is epoch milliseconds. */
export interface CapturedLine {
  level: ConsoleLine["level"];
  time: number;
  message: string;
}

/**
 * What a shard observed while running one call: the handler's console lines
 * and, when it threw, the message and stack. Plain data: it travels back to
 * the worker beside the call's result.
 */
export interface ShardObservation {
  lines: CapturedLine[];
  dropped: number;
  failure: CallFailure | null;
}

/**
 * Everything gathered for the call running now: facts from the entry point,
 * console lines (bounded), the first failure, the error code of the answer.
 * One scope per call, so concurrent calls in one isolate (or one Durable
 * Object) never mix their lines. Where it is found depends on who runs the
 * call: svc's code on a request's path holds the request ({@link callScopeOf}
 * reads it off the request); app code the worker runs (HTTP actions, cron
 * jobs, queue messages) runs in an `AsyncLocalStorage` frame
 * ({@link runInScope}); a shard's handler runs under a named runner whose
 * console lines find it through V8's async stack (`await-scope.ts`).
 *
 * @example
 * ```ts
 * const scope = new CallScope();
 * bindCallScope(request, scope);
 * scope.addLine("log", "hello"); // what a captured console line does
 * ```
 */
export class CallScope {
  readonly started = Date.now();
  readonly lines: CapturedLine[] = [];
  facts: Partial<CallFacts> = {};
  dropped = 0;
  failure: CallFailure | null = null;
  code: string | null = null;
  #chars = 0;
  #requestId: string | undefined;

  /**
   * The call's id, made on first use: a shard's scope only gathers lines
   * and never needs one.
   */
  get requestId(): string {
    this.#requestId ??= crypto.randomUUID();
    return this.#requestId;
  }

  /** Keeps one console line, unless the call already has as many as {@link RECORD_LIMITS} allow. */
  addLine(level: CapturedLine["level"], message: string, time = Date.now()): void {
    const text = scrubSecrets(clip(message, RECORD_LIMITS.lineChars));
    if (
      this.lines.length >= RECORD_LIMITS.lines ||
      this.#chars + text.length > RECORD_LIMITS.totalLineChars
    ) {
      this.dropped++;
      return;
    }
    this.#chars += text.length;
    this.lines.push({ level, time, message: text });
  }

  /** Folds in what a shard observed for this call (several shards for an HTTP action). */
  absorb(observation: ShardObservation | undefined): void {
    if (observation === undefined) return;
    for (const line of observation.lines) this.addLine(line.level, line.message, line.time);
    this.dropped += observation.dropped;
    this.failure ??= observation.failure;
  }

  /** What a shard sends back: its lines and failure. */
  observation(): ShardObservation {
    return { lines: this.lines, dropped: this.dropped, failure: this.failure };
  }
}

/** The part of Node's `AsyncLocalStorage` svc uses. */
interface ScopeStorage {
  run<R>(store: CallScope, work: () => R): R;
  getStore(): CallScope | undefined;
}

interface BuiltinModules {
  getBuiltinModule?(id: "node:async_hooks"): {
    AsyncLocalStorage: new () => ScopeStorage;
  };
}

/**
 * `AsyncLocalStorage` from the runtime (workerd and Node both offer
 * `process.getBuiltinModule`), found without a static `node:` import so a
 * bundle never needs a Node polyfill for it; `null` where there is none.
 */
function createStorage(): ScopeStorage | null {
  const runtime = (globalThis as { process?: BuiltinModules }).process;
  const hooks = runtime?.getBuiltinModule?.("node:async_hooks");
  return hooks === undefined ? null : new hooks.AsyncLocalStorage();
}

const storage = createStorage();

/** A storage that never holds a scope: where the runtime has no `AsyncLocalStorage`. */
const NO_STORAGE: ScopeStorage = {
  run: (_store, work) => work(),
  getStore: () => undefined,
};

const scopes: ScopeStorage = storage ?? NO_STORAGE;

/**
 * Refuses to start recording where calls cannot be told apart (a runtime
 * without `AsyncLocalStorage`), with the fix in the message.
 */
export function requireCallScopes(): void {
  if (storage === null) {
    throw new Error(
      "svc: call records need AsyncLocalStorage; enable the nodejs_compat (or nodejs_als) compatibility flag, or pass logs: false to createWorker",
    );
  }
}

/**
 * The scopes of the HTTP calls being answered, by their request. svc's own
 * code on a request's path (routing, admission, dispatch, problem answers)
 * holds the request and finds the call's scope here, so a call whose app
 * code runs in a shard (RPC, REST, streams, sockets) or that runs none (the
 * admin API) costs no `AsyncLocalStorage` frame in the worker: a frame cost
 * the worker 4 to 5 µs a call, about a quarter of what recording cost a
 * small REST read (BENCHMARKS.md section 12). App code the worker runs
 * itself (HTTP actions; cron jobs and queue messages) gets a frame
 * ({@link runInScope}), for its console lines and its calls into shards.
 * The scope is a symbol-keyed property of the request, not a `WeakMap`
 * entry: the entry (an ephemeron the garbage collector traces apart) cost
 * about 2 µs a call more.
 */
const SCOPE: unique symbol = Symbol("svc.callScope");

type ScopedRequest = Request & { [SCOPE]?: CallScope };

/**
 * Makes `scope` the record of the call answering `request`: every `note*`
 * given that request lands in it. It goes with the request.
 *
 * @example bindCallScope(request, new CallScope());
 */
export function bindCallScope(request: Request, scope: CallScope): void {
  (request as ScopedRequest)[SCOPE] = scope;
}

/**
 * Runs `work` as one call in an `AsyncLocalStorage` frame: console lines
 * and notes made inside it without a request (app code run in the worker,
 * calls into shards) land in `scope`.
 *
 * @example await runInScope(scope, () => handler(ctx, request));
 */
export function runInScope<T>(scope: CallScope, work: () => T): T {
  return scopes.run(scope, work);
}

/**
 * The scope of the call running now, found through its `AsyncLocalStorage`
 * frame (app code run in the worker, a shard's handler), if it is recorded.
 */
export function currentScope(): CallScope | undefined {
  return scopes.getStore();
}

/**
 * The scope of the call answering `request`, else (`null`, or a request
 * no recorder bound) the call running now.
 *
 * @example callScopeOf(request)?.requestId
 */
export function callScopeOf(request: Request | null): CallScope | undefined {
  return (request === null ? undefined : (request as ScopedRequest)[SCOPE]) ?? scopes.getStore();
}

/**
 * The request id of the call answering `request` (`null`: the call running
 * now), what `ctx.meta.requestId` and its record show, or a fresh one when
 * the call is not recorded.
 *
 * @example const requestId = requestIdOfCall(request);
 */
export function requestIdOfCall(request: Request | null): string {
  return callScopeOf(request)?.requestId ?? crypto.randomUUID();
}

/**
 * Tells the recorder about the call answering `request` (`null`: the call
 * running now): the entry point, the templated route once known, the caller
 * once resolved. Does nothing when recording is off, so entry points call
 * it unconditionally.
 *
 * @example noteCall(request, { entry: "rpc", route: "messages:list", shardKey: "default" });
 */
export function noteCall(request: Request | null, facts: Partial<CallFacts>): void {
  const scope = callScopeOf(request);
  if (scope !== undefined) Object.assign(scope.facts, facts);
}

/**
 * Records a call's arguments when its procedure opted in with
 * `.log({ args: true })` (redacted, bounded); otherwise they stay out.
 *
 * @example noteArgs(request, procedure.log, body.args);
 */
export function noteArgs(
  request: Request,
  log: { readonly args: boolean } | undefined,
  args: unknown,
): void {
  if (log?.args !== true) return;
  const scope = callScopeOf(request);
  if (scope !== undefined) scope.facts.args = redactArgs(args);
}

/**
 * Tells the recorder which error an answer carries: its code, and when no
 * deeper failure was seen (a shard's stack arrives first), the thrown value's
 * message, with its stack only for a server error (`status` 500 or more): a
 * refused request's stack is svc's own routing, noise in every log line.
 *
 * @example noteProblem(request, "NOT_FOUND", 404, error);
 */
export function noteProblem(
  request: Request | null,
  code: string,
  status: number,
  thrown: unknown,
): void {
  const scope = callScopeOf(request);
  if (scope === undefined) return;
  scope.code = code;
  if (scope.failure !== null) return;
  const failure = failureOf(thrown);
  scope.failure = status >= 500 ? failure : { message: failure.message, stack: null };
}

/**
 * Folds a shard's observation into the call answering `request` (`null`:
 * the call running now).
 *
 * @example noteObservation(invocation.request, result.observed);
 */
export function noteObservation(
  request: Request | null,
  observation: ShardObservation | undefined,
): void {
  if (observation === undefined) return;
  callScopeOf(request)?.absorb(observation);
}

/** The message and stack of anything thrown, clipped and scrubbed. */
export function failureOf(thrown: unknown): CallFailure {
  if (thrown instanceof Error) {
    return {
      message: scrubSecrets(clip(thrown.message, RECORD_LIMITS.errorMessageChars)),
      stack:
        thrown.stack === undefined
          ? null
          : scrubSecrets(clip(thrown.stack, RECORD_LIMITS.stackChars)),
    };
  }
  return {
    message: scrubSecrets(clip(String(thrown), RECORD_LIMITS.errorMessageChars)),
    stack: null,
  };
}
