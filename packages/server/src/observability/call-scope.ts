import { awaitScope, runInAwaitScope } from "./await-scope.ts";
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
  /** The request's method, when the entry point read it anyway: the record then reads it no more. */
  method: string;
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
 * Object) never mix their lines. One way finds it wherever app code runs
 * (an HTTP action, a cron job, a queue message in the worker; a procedure,
 * a subscription re-run, a scheduled run in a shard): the call runs under
 * {@link runInScope}, and {@link currentScope} reads which call from the
 * await chain of the code running now (`await-scope.ts`). svc's own code
 * on a request's path is handed the scope with the request
 * ({@link bindCallScope}, {@link callScopeOf}) and never looks it up.
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
  // The facts an entry point notes ({@link CallFacts}), each a field of its own: several
  // notes a call merged into one object cost an object and a generic copy per note.
  entry: EntryPoint | undefined = undefined;
  route: string | undefined = undefined;
  method: string | undefined = undefined;
  shardKey: string | null | undefined = undefined;
  caller: Caller | undefined = undefined;
  args: unknown = undefined;
  queue: QueueFacts | undefined = undefined;
  cron: CronFacts | undefined = undefined;
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

  /**
   * Keeps what an entry point says about the call (see {@link noteCall}); a
   * fact left `undefined` keeps its earlier value.
   */
  note(facts: Partial<CallFacts>): void {
    if (facts.entry !== undefined) this.entry = facts.entry;
    if (facts.route !== undefined) this.route = facts.route;
    if (facts.method !== undefined) this.method = facts.method;
    if (facts.shardKey !== undefined) this.shardKey = facts.shardKey;
    if (facts.caller !== undefined) this.caller = facts.caller;
    if (facts.args !== undefined) this.args = facts.args;
    if (facts.queue !== undefined) this.queue = facts.queue;
    if (facts.cron !== undefined) this.cron = facts.cron;
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

/**
 * The scope of the HTTP call answering a request, kept on the request.
 * This is not a second way to find a call: it is the scope handed along
 * with the request svc's own code already holds (routing, admission,
 * dispatch, problem answers), as an argument would be, so those steps pay
 * no lookup. Code that holds no request (app code, console lines) finds
 * the call through its await chain ({@link currentScope}). A
 * symbol-keyed property, not a `WeakMap` entry: the entry (an ephemeron
 * the garbage collector traces apart) cost about 2 µs a call more.
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
 * Runs `work` as one call whose console lines, server calls and notes
 * without a request land in `scope`: found through the call's await chain
 * (`await-scope.ts` says how, what it finds and what not). Every place svc
 * runs app code goes through here: an HTTP action in the worker, a cron job
 * or queue message, a shard's procedure call, a subscription re-run, a
 * scheduled run.
 *
 * @example await runInScope(scope, () => handler(ctx, request));
 */
export function runInScope<T>(scope: CallScope, work: () => Promise<T>): Promise<T> {
  return runInAwaitScope(scope, work);
}

/**
 * The scope of the call whose await chain the code running now is on, if
 * it is recorded. Free while no recorded call runs app code; else one read
 * of V8's async stack, so svc asks only where no request is at hand (a
 * console line, a server call).
 */
export function currentScope(): CallScope | undefined {
  return awaitScope() as CallScope | undefined;
}

/**
 * The scope of the call answering `request`, else (`null`, or a request
 * no recorder bound) the call running now.
 *
 * @example callScopeOf(request)?.requestId
 */
export function callScopeOf(request: Request | null): CallScope | undefined {
  return (request === null ? undefined : (request as ScopedRequest)[SCOPE]) ?? currentScope();
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
  callScopeOf(request)?.note(facts);
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
  if (scope !== undefined) scope.args = redactArgs(args);
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
