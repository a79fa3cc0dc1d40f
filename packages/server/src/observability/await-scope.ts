/**
 * svc's one way to find which call the code running now belongs to, in
 * every place app code runs: the worker (HTTP actions, cron jobs, queue
 * messages) and shards (procedure calls, subscription re-runs, scheduled
 * runs). Console lines ask it, and so do calls from worker code into a
 * shard (whether to record them); svc's own request path is handed the
 * scope with the request instead (`bindCallScope`).
 *
 * Why not `AsyncLocalStorage`: workerd makes each of its frames on the
 * garbage-collected heap, 4 to 6 µs a call (5.7 µs in a shard of the
 * benchmark app), more than the whole 5 % recording may cost a small REST
 * read (BENCHMARKS.md section 12), paid by every call though most print
 * nothing; it also needs the `nodejs_compat` flag. Here a call costs one
 * more `async` function: its work runs under a named async function from
 * a small pool (`svc.call.<copy>#3`), and only a lookup pays, about 1.5 µs,
 * to read V8's async stack trace for the innermost such name.
 *
 * What it finds: the lines of the call and of everything it awaits, before
 * and after each `await`, through `.then` chains and `Promise.all`: V8
 * follows a promise to the one that waits for it, so a line of work
 * another call started (a promise shared between calls, a module-level
 * queue) lands in the record of the call that awaits it, and a call run
 * inside another (a subscription re-run a commit started) keeps its own. What it does not:
 * a line printed by a callback no running call awaits (a timer's, an event
 * listener's, `waitUntil` work, work left running); such a line is still
 * printed, only kept in no record, like one printed after its call ended.
 * A call whose work never settles keeps its runner, and every console line
 * in the isolate then pays the stack capture. An app that freezes `Error`
 * keeps its lines out of records (docs/observability.md).
 */

/**
 * This copy of svc's runner names: two copies of svc in one isolate (each
 * with its own pool) never take each other's runners for their own.
 */
const NAME_PREFIX = `svc.call.${Math.random().toString(36).slice(2, 8)}#`;

/**
 * Runs work as part of a call whose console lines {@link awaitScope} finds:
 * what a boundary that breaks the call's await chain (a storage
 * transaction's callback) runs its work through.
 */
export type Rejoin = <T>(work: () => Promise<T>) => Promise<T>;

/** One frame of a V8 stack trace, as `Error.prepareStackTrace` gets it. */
interface CallSite {
  getFunctionName(): string | null;
}

/** V8's stack trace API (workerd's and Node's), typed here: svc's own types carry no Node globals. */
const V8Error = Error as unknown as {
  stackTraceLimit: number;
  prepareStackTrace?: ((error: unknown, sites: readonly CallSite[]) => unknown) | undefined;
  captureStackTrace(target: object, below: () => unknown): void;
};

/** The scope (a call's record, `CallScope`) of the call running under each runner; `undefined`: runner free. */
const scopes: (object | undefined)[] = [];
/** Runners by index, each named {@link NAME_PREFIX} and its index, made on first use. */
const runners: Rejoin[] = [];
/**
 * Indices of free runners, reused so the pool stays as small as the peak of
 * concurrent calls. Every index below `scopes.length` is either here or in
 * use, so no call runs exactly when all of them are here.
 */
const free: number[] = [];

function runnerAt(index: number): Rejoin {
  const existing = runners[index];
  if (existing !== undefined) return existing;
  const name = `${NAME_PREFIX}${index}`;
  // A computed method name is the function's name in V8's stack traces.
  const runner = {
    async [name]<T>(work: () => Promise<T>): Promise<T> {
      try {
        return await work();
      } finally {
        scopes[index] = undefined;
        free.push(index);
      }
    },
  }[name] as Rejoin;
  runners[index] = runner;
  return runner;
}

/**
 * Runs `work` as one call whose console lines {@link awaitScope} finds in
 * `scope`, without an `AsyncLocalStorage` frame.
 *
 * @example const value = await runInAwaitScope(scope, () => handler(ctx, args));
 */
export function runInAwaitScope<T>(scope: object, work: () => Promise<T>): Promise<T> {
  const index = free.pop() ?? scopes.length;
  scopes[index] = scope;
  return runnerAt(index)(work);
}

/** `Error.prepareStackTrace` for one capture: the index in the innermost runner's name, else -1. */
function innermostRunner(_error: unknown, sites: readonly CallSite[]): number {
  for (const site of sites) {
    const name = site.getFunctionName();
    if (name?.startsWith(NAME_PREFIX)) return Number(name.slice(NAME_PREFIX.length));
  }
  return -1;
}

/** The index of the innermost runner on the stack running now (async frames too), else -1. */
function innermostRunnerNow(): number {
  const limit = V8Error.stackTraceLimit;
  const hadPrepare = Object.hasOwn(V8Error, "prepareStackTrace");
  const prepare = V8Error.prepareStackTrace;
  const holder: { stack?: unknown } = {};
  try {
    V8Error.stackTraceLimit = Number.POSITIVE_INFINITY;
    V8Error.prepareStackTrace = innermostRunner;
    V8Error.captureStackTrace(holder, innermostRunnerNow);
    return typeof holder.stack === "number" ? holder.stack : -1;
  } finally {
    V8Error.stackTraceLimit = limit;
    // Leave `Error` as the app had it: no own `prepareStackTrace` where it had none.
    if (hadPrepare) V8Error.prepareStackTrace = prepare;
    else delete V8Error.prepareStackTrace;
  }
}

/**
 * The scope of the call whose await chain the code running now is on, if it
 * runs under {@link runInAwaitScope}. Free while no such call runs; else one
 * stack capture (every frame, async ones too), which is why only a console
 * line asks.
 *
 * @example awaitScope()?.addLine("log", "hello");
 */
export function awaitScope(): object | undefined {
  if (free.length === scopes.length) return undefined;
  try {
    return scopes[innermostRunnerNow()];
  } catch {
    // An app that froze `Error`: its lines stay out of records; its console still works.
    return undefined;
  }
}
