import { ERROR_STATUS, type ErrorCode } from "../errors/error-codes.ts";
import { SvcError } from "../errors/svc-error.ts";
import { sizeOf } from "./body-size.ts";
import { type CallEnd, factsOf, type RecordFacts, recordOf } from "./build-record.ts";
import { bindCallScope, type CallFacts, CallScope, failureOf, runInScope } from "./call-scope.ts";
import { installConsoleCapture, plainConsole } from "./console-capture.ts";
import { consoleFormatOf } from "./console-format.ts";
import { printRecords } from "./console-line.ts";
import type { RecordingPlan } from "./plan.ts";
import { type Lifetime, StoreShipper } from "./shipper.ts";

/**
 * A request's declared body size; a GET or HEAD has none (and no header
 * lookup is spent on it). `method` is the request's, read once by the
 * caller: each read of `request.method` makes workerd build the string anew.
 */
function bytesInOf(request: Request, method: string): number {
  if (method === "GET" || method === "HEAD") return 0;
  return declaredLength(request.headers) ?? 0;
}

function declaredLength(headers: Headers): number | null {
  const value = headers.get("content-length");
  if (value === null) return null;
  const length = Number(value);
  return Number.isSafeInteger(length) && length >= 0 ? length : null;
}

function statusOf(error: unknown): { status: number; code: string } {
  if (error instanceof SvcError) return { status: ERROR_STATUS[error.code], code: error.code };
  const code: ErrorCode = "INTERNAL";
  return { status: ERROR_STATUS[code], code };
}

/**
 * Runs one cron job or queue message as a recorded call (see
 * {@link CallRecorder.service}), bound to its invocation's env and `waitUntil`.
 */
export type RecordRun = <T>(facts: Partial<CallFacts>, work: () => Promise<T>) => Promise<T>;

/**
 * Sends finished records where the plan says: the log store (batched, off
 * the request path) and one JSON line each on the console. With a store, the
 * store prints the lines of the batches it takes (its Durable Object's logs
 * are the same worker's Workers Logs), so a call spends no CPU on its line;
 * without one, or when the store did not take a batch, the worker prints
 * them.
 */
export class RecordSinks {
  readonly plan: RecordingPlan;
  readonly #shipper: StoreShipper | null;

  constructor(plan: RecordingPlan, partition: number) {
    this.plan = plan;
    const { store } = plan;
    this.#shipper = store === null ? null : new StoreShipper({ ...plan, store }, partition);
  }

  /**
   * Emits one finished call's record, given as its facts: the record itself
   * is made only where it is printed (the store makes its own). Never throws.
   */
  emit(facts: RecordFacts, env: unknown, lifetime: Lifetime): void {
    try {
      const shipped = this.#shipper?.push(facts, env, lifetime) ?? false;
      if (this.plan.console && !shipped) printRecords([recordOf(facts)], consoleFormatOf(env));
    } catch (error) {
      plainConsole.warn("svc: a call record could not be written:", failureOf(error).message);
    }
  }
}

/**
 * The worker's side of call recording. `request` binds a fresh call scope to
 * one HTTP request (entry points say what the call is with `noteCall`, given
 * the request), runs it, then builds and emits its record; a request no
 * entry point claimed leaves no record. App code the worker runs for the
 * request (an HTTP action) runs under the scope itself (`runInScope`), for
 * its console lines. `service` runs one cron job or queue message under a
 * scope of its own, and records it the same way.
 * Recording never changes an answer: it only reads it (and, for a body of
 * unknown length, counts its bytes on the way out).
 */
export class CallRecorder {
  readonly sinks: RecordSinks;

  /**
   * `partition`: the store partition this recorder writes to. Default: one
   * at random, fixed for the isolate, so its writes batch together and
   * isolates spread over the partitions.
   */
  constructor(plan: RecordingPlan, partition = Math.floor(Math.random() * plan.partitions)) {
    installConsoleCapture();
    this.sinks = new RecordSinks(plan, partition);
  }

  get plan(): RecordingPlan {
    return this.sinks.plan;
  }

  /**
   * Runs `serve` on the request as one recorded HTTP call and answers its
   * response, unchanged; a rejected answer becomes `recover`'s response (or
   * its throw, rethrown). Settling and recording are one `then`: the caller
   * adds no promise of its own. `serve` and `recover` take the request,
   * `env` and `ctx` from here, so a caller makes no closure per call to hand
   * them over.
   *
   * @example return recorder.request(request, env, ctx, serve, (error) => problemResponse(error));
   */
  request<Env>(
    request: Request,
    env: Env,
    ctx: ExecutionContext,
    serve: (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>,
    recover: (error: unknown, request: Request) => Response,
  ): Promise<Response> {
    const scope = new CallScope();
    bindCallScope(request, scope);
    let answering: Response | Promise<Response>;
    try {
      answering = serve(request, env, ctx);
    } catch (error) {
      answering = Promise.reject(error);
    }
    return Promise.resolve(answering).then(
      (response) => this.#answered(scope, request, env, ctx, response),
      (error: unknown) => {
        let response: Response;
        try {
          response = recover(error, request);
        } catch (thrown) {
          scope.failure ??= failureOf(thrown);
          this.#finish(scope, request, env, ctx, 500, 0);
          throw thrown;
        }
        return this.#answered(scope, request, env, ctx, response);
      },
    );
  }

  /** Records a call that answered `response`, once its size is known. */
  #answered(
    scope: CallScope,
    request: Request,
    env: unknown,
    ctx: ExecutionContext,
    response: Response,
  ): Response {
    if (scope.entry === undefined) return response;
    const known = sizeOf(response) ?? declaredLength(response.headers);
    // `known` first: reading `body` makes workerd wrap the body's stream for JS.
    if (known !== null || response.body === null) {
      this.#finish(scope, request, env, ctx, response.status, known ?? 0);
      return response;
    }
    // A body of unknown length (a stream, an HTTP action's own Response): count it as it goes out.
    let counted = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        counted += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const status = response.status;
    const done = () => this.#finish(scope, request, env, ctx, status, counted);
    ctx.waitUntil(response.body.pipeTo(counter.writable).then(done, done));
    return new Response(counter.readable, response);
  }

  /** Builds and emits the record of a finished HTTP call (none when no entry point claimed it). */
  #finish(
    scope: CallScope,
    request: Request,
    env: unknown,
    ctx: ExecutionContext,
    status: number,
    bytesOut: number,
  ): void {
    if (scope.entry === undefined) return;
    // Each read of `request.method` makes workerd build the string anew: the route's read, if any.
    const method = scope.method ?? request.method;
    const facts = factsOf(scope, {
      status,
      method,
      bytesIn: bytesInOf(request, method),
      bytesOut,
      durationMs: Date.now() - scope.started,
    });
    if (facts !== null) this.sinks.emit(facts, env, ctx);
  }

  /**
   * Runs one cron job or queue message as a recorded call and rethrows its
   * failure, so the caller's own handling (logging, retrying) is unchanged.
   * `facts.queue.deadLettered` says whether a failure now would be the
   * message's last attempt; a success clears it.
   */
  async service<T>(
    facts: Partial<CallFacts>,
    env: unknown,
    lifetime: Lifetime,
    work: () => Promise<T>,
  ): Promise<T> {
    const scope = new CallScope();
    scope.note(facts);
    const finish = (status: number) => {
      const end: CallEnd = {
        status,
        method: null,
        bytesIn: 0,
        bytesOut: 0,
        durationMs: Date.now() - scope.started,
      };
      const facts = factsOf(scope, end);
      if (facts !== null) this.sinks.emit(facts, env, lifetime);
    };
    try {
      const value = await runInScope(scope, work);
      // Only a failure on the last attempt sends a message to the dead-letter queue.
      if (facts.queue !== undefined) scope.queue = { ...facts.queue, deadLettered: false };
      finish(200);
      return value;
    } catch (error) {
      const { status, code } = statusOf(error);
      scope.code ??= code;
      scope.failure ??= failureOf(error);
      finish(status);
      throw error;
    }
  }
}
