import {
  createDatabase,
  createReader,
  type DatabaseOptions,
  readOnly,
  type TableAccess,
  tableAccess,
  type WrittenDocument,
} from "../db/database.ts";
import type { DocumentView } from "../db/document-view.ts";
import type { DatabaseReader, DatabaseWriter } from "../db/types.ts";
import { SvcError } from "../errors/svc-error.ts";
import { validationFailed } from "../errors/validation-failed.ts";
import type { CallMeta, ProcedureKind, Transport } from "../model/call-meta.ts";
import { type AuthContext, authContext, type Identity } from "../model/identity.ts";
import type { Rejoin } from "../observability/await-scope.ts";
import type { RecordingPlan } from "../observability/plan.ts";
import { runMiddleware } from "../procedures/middleware.ts";
import type { AnyProcedure, FunctionRegistry } from "../procedures/procedure.ts";
import { isProcedure } from "../procedures/procedure.ts";
import type { SchemaDefinition } from "../schema/define.ts";
import { storageContext } from "../storage/context.ts";
import type { FileStore } from "../storage/file-store.ts";
import {
  type AnyValidator,
  type Issue,
  ROOT_PATH,
  toValidationIssues,
} from "../values/validator.ts";
import { MutationLock } from "./mutation-lock.ts";

/** Who is calling and through which door; shared by nested `ctx.run*` calls. */
export interface CallOrigin {
  identity: Identity | null;
  /** Set for service calls (cron jobs, queue consumers). */
  service: string | null;
  /** A subscription's upgrade headers (cookie, authorization), shown as `ctx.meta.headers`. */
  headers?: Readonly<Record<string, string>>;
  transport: Transport;
  requestId: string;
  shardKey: string;
  /** Collects the documents each committed mutation of the call wrote (the data studio's run). */
  written?: WrittenDocument[];
  /** A client's id for an outermost mutation, handed to `onCommit` (see `x-svc-mutation-id`). */
  mutationId?: string;
  /**
   * Runs work as part of this call again where its await chain breaks: the
   * callback of a storage transaction, which workerd calls from its own event
   * loop. Set when the worker records the call, so the console lines a
   * mutation prints still reach its record (`observe-run.ts`).
   */
  rejoin?: Rejoin;
  /** Where the worker records this call: jobs it schedules are recorded there too. */
  plan?: RecordingPlan;
}

/** Where a call is not recorded: its work needs no rejoining. */
const runDirectly: Rejoin = (work) => work();

/** A live query svc adds to every shard: its path, what it runs, and the table whose commits re-run it. */
export interface SystemQuery {
  path: string;
  procedure: AnyProcedure;
  table: string;
}

/** What the dispatcher needs from its shard. */
export interface DispatcherDeps {
  functions: FunctionRegistry;
  schema: SchemaDefinition;
  storage: DurableObjectStorage;
  now: () => number;
  /**
   * Called after each outermost mutation commits, with the tables it wrote
   * and the client's mutation id (then even when it wrote nothing).
   */
  onCommit?: (tables: ReadonlySet<string>, mutationId?: string) => void;
  /** How stored rows become documents (the shard's migrations). Default: as stored. */
  view?: DocumentView;
  /** The shard's files, behind `ctx.storage` (docs/storage.md); absent when storage is off. */
  files?: FileStore;
  /**
   * Builds `ctx.scheduler` of a mutation or action (the shard's scheduler,
   * scheduler/schedule.ts); `access` is the mutation's, to note its writes.
   */
  scheduler?: (origin: CallOrigin, access: TableAccess | undefined) => unknown;
  /** Live queries svc adds under reserved `_svc/` paths (scheduler/watch.ts). */
  systemQueries?: readonly SystemQuery[];
}

/** Where a call runs: inside a mutation's transaction or not, and what it records. */
interface Scope {
  inTransaction: boolean;
  access: TableAccess | undefined;
}

const OUTSIDE: Scope = { inTransaction: false, access: undefined };

/** One run of a procedure: what its `ctx` is built from. */
interface Invocation {
  path: string;
  procedure: AnyProcedure;
  auth: AuthContext;
  meta: CallMeta;
  args: Record<string, unknown>;
  origin: CallOrigin;
}

/**
 * Validates arguments against an `.input()` object validator (`undefined` and
 * `null` mean no arguments), throwing `VALIDATION_FAILED` (issue list capped).
 *
 * @example validateArgs(v.object({ n: v.number() }), { n: 1 }) // { n: 1 }
 */
export function validateArgs(validator: AnyValidator, args: unknown): Record<string, unknown> {
  const value = args === undefined || args === null ? {} : args;
  const issues: Issue[] = [];
  validator.check(value, { path: ROOT_PATH, issues });
  if (issues.length > 0) throw validationFailed(toValidationIssues("args", issues));
  return value as Record<string, unknown>;
}

/** One call of a procedure as its handler's `ctx` and its checks see it. */
function invocationOf(
  path: string,
  procedure: AnyProcedure,
  args: Record<string, unknown>,
  origin: CallOrigin,
): Invocation {
  const meta: { -readonly [K in keyof CallMeta]: CallMeta[K] } = {
    path,
    kind: procedure.kind,
    transport: origin.transport,
    shardKey: origin.shardKey,
    requestId: origin.requestId,
  };
  if (origin.headers) meta.headers = origin.headers;
  const auth = authContext(origin.identity, origin.service);
  return { path, procedure, auth, meta, args, origin };
}

/**
 * The one dispatch path of a shard: validation, middleware, RLS-aware
 * `ctx.db`, transactions and output checks. RPC and REST both end here, so
 * nothing differs between them but the encoding.
 */
export class Dispatcher {
  readonly #deps: DispatcherDeps;
  readonly #paths = new Map<AnyProcedure, string>();
  readonly #lock = new MutationLock();
  /**
   * `deps.storage.sql`, read once: the getter is a call into the runtime,
   * and every `ctx.db` of every call needs it.
   */
  readonly #sql: SqlStorage;

  constructor(deps: DispatcherDeps) {
    this.#deps = deps;
    this.#sql = deps.storage.sql;
    for (const [path, procedure] of Object.entries(deps.functions))
      this.#paths.set(procedure, path);
  }

  /**
   * Finds a procedure callable from outside: public, and a stream exactly when
   * `mode` is `stream`. Anything else is the same `NOT_FOUND` as an unknown path.
   */
  publicProcedure(path: string, mode: "call" | "stream"): AnyProcedure {
    const procedure = Object.hasOwn(this.#deps.functions, path)
      ? this.#deps.functions[path]
      : undefined;
    if (
      procedure === undefined ||
      procedure.visibility !== "public" ||
      (procedure.kind === "stream") !== (mode === "stream")
    ) {
      throw new SvcError("NOT_FOUND", "No such procedure.");
    }
    return procedure;
  }

  /**
   * Finds a query a client may subscribe to: svc's own (`_svc/…`) or the
   * app's public queries, else the unknown-path `NOT_FOUND`.
   */
  subscribableProcedure(path: string): AnyProcedure {
    const system = this.#system(path);
    if (system !== undefined) return system.procedure;
    const procedure = this.publicProcedure(path, "call");
    if (procedure.kind !== "query") throw new SvcError("NOT_FOUND", "No such procedure.");
    return procedure;
  }

  /**
   * Finds a query, mutation or action the app's server code may run: public
   * or internal, never a stream. An unknown path is `NOT_FOUND`.
   */
  serverProcedure(path: string): AnyProcedure {
    const procedure = Object.hasOwn(this.#deps.functions, path)
      ? this.#deps.functions[path]
      : undefined;
    if (procedure === undefined || procedure.kind === "stream") {
      throw new SvcError("NOT_FOUND", `No query, mutation or action ${JSON.stringify(path)}.`);
    }
    return procedure;
  }

  /**
   * Runs `task` while no mutation runs; mutations that arrive meanwhile wait
   * for it. Exports, data deletion and migration batches use it to see a
   * shard that stands still.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.#lock.run(task);
  }

  /** Runs a query, mutation or action called from outside the shard. */
  run(path: string, procedure: AnyProcedure, args: unknown, origin: CallOrigin): Promise<unknown> {
    if (procedure.kind === "mutation") {
      return this.#lock.run(() => this.#invoke(path, procedure, args, origin, OUTSIDE));
    }
    return this.#invoke(path, procedure, args, origin, OUTSIDE);
  }

  /**
   * Runs a mutation as {@link run} does, but its transaction first calls
   * `claim`: a scheduled job is marked done in the same transaction as the
   * writes of its run, so it commits exactly once. When `claim` answers
   * false (the job was canceled or already ran) nothing runs.
   */
  async runClaimed(
    path: string,
    procedure: AnyProcedure,
    args: unknown,
    origin: CallOrigin,
    claim: () => boolean,
  ): Promise<{ ran: boolean }> {
    let ran = false;
    await this.#lock.run(() =>
      this.#invoke(path, procedure, args, origin, OUTSIDE, () => {
        ran = claim();
        return ran;
      }),
    );
    return { ran };
  }

  /**
   * Runs a query for a subscription and answers its value with the tables it
   * read (nested `ctx.runQuery` calls included): a commit that writes one of
   * them re-runs it.
   */
  async runTracked(
    path: string,
    procedure: AnyProcedure,
    args: unknown,
    origin: CallOrigin,
  ): Promise<{ value: unknown; reads: ReadonlySet<string> }> {
    const access = tableAccess();
    const value = await this.#invoke(path, procedure, args, origin, {
      inTransaction: false,
      access,
    });
    const system = this.#system(path);
    if (system?.procedure === procedure) access.reads.add(system.table);
    return { value, reads: access.reads };
  }

  #system(path: string): SystemQuery | undefined {
    return this.#deps.systemQueries?.find((system) => system.path === path);
  }

  /** Starts a stream: validation and middleware run now, items when iterated. */
  async openStream(
    path: string,
    procedure: AnyProcedure,
    args: unknown,
    origin: CallOrigin,
  ): Promise<AsyncIterable<unknown>> {
    const iterable = await this.#invoke(path, procedure, args, origin, OUTSIDE);
    if (iterable === null || typeof iterable !== "object" || !(Symbol.asyncIterator in iterable)) {
      throw new Error(`svc: stream ${path} did not return an async iterable`);
    }
    return iterable as AsyncIterable<unknown>;
  }

  /**
   * Runs a procedure as `origin`'s caller: its arguments checked, its `ctx`
   * made, its handler behind its middleware; a mutation in its transaction.
   * Never throws: every failure is the promise's rejection. Not `async`: a
   * query, action or stream runs with no frame of its own (see {@link #answer}).
   */
  #invoke(
    path: string,
    procedure: AnyProcedure,
    rawArgs: unknown,
    origin: CallOrigin,
    scope: Scope,
    claim?: () => boolean,
  ): Promise<unknown> {
    let call: Invocation;
    try {
      call = invocationOf(path, procedure, validateArgs(procedure.args, rawArgs), origin);
      if (procedure.kind !== "mutation") return this.#answer(call, scope);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#mutate(call, scope, claim);
  }

  /**
   * A query's, action's or stream's handler, run right here (it may throw):
   * its promise as it is when there is no `.output()` to check (a stream's
   * items are checked as sent), else one `then` that checks it.
   */
  #answer(call: Invocation, scope: Scope): Promise<unknown> {
    const result = Promise.resolve(this.#handle(call, scope));
    const { procedure } = call;
    if (procedure.kind === "stream" || procedure.output === undefined) return result;
    return result.then((value) => checkOutput(call.path, procedure, value));
  }

  /** A mutation: its own transaction, or a savepoint of the one it runs in. */
  async #mutate(
    call: Invocation,
    scope: Scope,
    claim: (() => boolean) | undefined,
  ): Promise<unknown> {
    const { origin } = call;
    const rejoin = origin.rejoin ?? runDirectly;
    // Nested mutations become savepoints of the outer transaction and record into its write set.
    if (scope.inTransaction) {
      return this.#deps.storage.transaction(() => rejoin(() => this.#body(call, scope)));
    }
    const access = tableAccess();
    const result = await this.#deps.storage.transaction(() =>
      rejoin(() =>
        claim === undefined || claim()
          ? this.#body(call, { inTransaction: true, access })
          : Promise.resolve(undefined),
      ),
    );
    if (access.writes.size > 0 || origin.mutationId !== undefined)
      this.#deps.onCommit?.(access.writes, origin.mutationId);
    origin.written?.push(...access.documents);
    return result;
  }

  /** A mutation's handler behind its middleware, in `scope`, with its output checked. */
  async #body(call: Invocation, scope: Scope): Promise<unknown> {
    return checkOutput(call.path, call.procedure, await this.#handle(call, scope));
  }

  /** Calls the handler behind its middleware, in `scope`: its result, a promise or not. */
  #handle(call: Invocation, scope: Scope): unknown {
    const { procedure, args } = call;
    const ctx = this.#context(call, scope);
    // Called as the procedure's method, so a handler's stack frame reads `Object.handler` (a
    // recorded failure's stack names it) rather than an anonymous function of the bundle.
    const own = procedure as unknown as { handler(ctx: unknown, args: unknown): unknown };
    // No middleware (most procedures): the handler is the chain, with nothing to wrap it.
    if (procedure.middleware.length === 0) return own.handler(ctx, args);
    return runMiddleware(procedure.middleware, ctx, (finalCtx) =>
      Promise.resolve(own.handler(finalCtx, args)),
    );
  }

  /**
   * `ctx.db` outside any procedure, for the data studio's reads: RLS applied
   * exactly as for `origin`'s caller (the same policies, the same SQL), or not
   * at all when `enforceRls` is false (the operator sees every row). `path`
   * is what policies see as `ctx.meta.path`.
   */
  reader(origin: CallOrigin, path: string, enforceRls: boolean): DatabaseReader {
    return readOnly(this.#database(origin, path, "query", enforceRls, undefined));
  }

  /**
   * Runs an operator's write (the data studio) as an outermost mutation runs:
   * under the mutation lock, in one transaction, then the same commit
   * notification, so a live query watching the table sees the edit. RLS does
   * not apply; the schema's validation does.
   */
  write<T>(origin: CallOrigin, path: string, work: (db: DatabaseWriter) => Promise<T>): Promise<T> {
    return this.#lock.run(async () => {
      const access = tableAccess();
      const db = this.#database(origin, path, "mutation", false, access);
      const result = await this.#deps.storage.transaction(() => work(db));
      if (access.writes.size > 0) this.#deps.onCommit?.(access.writes);
      origin.written?.push(...access.documents);
      return result;
    });
  }

  #database(
    origin: CallOrigin,
    path: string,
    kind: "query" | "mutation",
    enforceRls: boolean,
    access: TableAccess | undefined,
  ): DatabaseWriter {
    const meta: CallMeta = {
      path,
      kind,
      transport: origin.transport,
      shardKey: origin.shardKey,
      requestId: origin.requestId,
    };
    const auth = authContext(origin.identity, origin.service);
    return createDatabase(this.#options({ auth, meta }, enforceRls, access));
  }

  /** How a procedure's `ctx.db` reads and writes: as its caller, in `scope`. */
  #databaseOptions(call: Invocation, scope: Scope): DatabaseOptions {
    const policyCtx = { auth: call.auth, meta: call.meta };
    return this.#options(policyCtx, !call.procedure.bypassRls, scope.access);
  }

  /** The options every `ctx.db` of this shard shares, for a caller (`policyCtx`) and its RLS and write set. */
  #options(
    policyCtx: DatabaseOptions["policyCtx"],
    enforceRls: boolean,
    access: TableAccess | undefined,
  ): DatabaseOptions {
    const options: DatabaseOptions = {
      sql: this.#sql,
      schema: this.#deps.schema,
      policyCtx,
      enforceRls,
      now: this.#deps.now,
      access,
    };
    // The data studio sees (and edits) documents as handlers do, migrated while a migration runs.
    if (this.#deps.view) options.view = this.#deps.view;
    return options;
  }

  /**
   * The `ctx` a procedure's middleware and handler get. Only what its kind
   * uses is built: a query's `ctx.db` is a reader made as one (no writer
   * first), and the reader `ctx.storage` checks access with is made when a
   * file is first looked up, unless it is the query's own `ctx.db`.
   */
  #context(call: Invocation, scope: Scope): Record<string, unknown> {
    const { procedure, auth, origin } = call;
    const { kind } = procedure;
    const ctx: Record<string, unknown> = { auth, meta: call.meta, args: call.args };
    let reader: DatabaseReader | undefined;
    if (kind === "mutation") {
      ctx.db = createDatabase(this.#databaseOptions(call, scope));
    } else if (kind === "query" || kind === "stream") {
      reader = createReader(this.#databaseOptions(call, scope));
      ctx.db = reader;
    }
    if (this.#deps.files !== undefined) {
      const dispatcher = this;
      ctx.storage = storageContext(this.#deps.files, {
        kind,
        userId: auth.userId,
        bypassRls: procedure.bypassRls,
        reader() {
          reader ??= createReader(dispatcher.#databaseOptions(call, scope));
          return reader;
        },
        access: scope.access,
      });
    }
    ctx.runQuery = this.#runner("query", origin, scope);
    // An action's mutations are each their own transaction; a mutation's join its own.
    if (kind === "mutation") ctx.runMutation = this.#runner("mutation", origin, scope);
    if (kind === "action") {
      ctx.runMutation = this.#runner("mutation", origin, OUTSIDE);
      ctx.runAction = this.#runner("action", origin, OUTSIDE);
    }
    if ((kind === "mutation" || kind === "action") && this.#deps.scheduler !== undefined)
      ctx.scheduler = this.#deps.scheduler(origin, scope.access);
    return ctx;
  }

  #runner(kind: ProcedureKind, origin: CallOrigin, scope: Scope) {
    return (ref: unknown, args?: unknown) => {
      const { path, procedure } = this.resolve(ref);
      if (procedure.kind !== kind) {
        throw new Error(
          `svc: run${capitalize(kind)} cannot run ${path}, which is a ${procedure.kind}`,
        );
      }
      const { mutationId: _outer, ...rest } = origin;
      const nested: CallOrigin = { ...rest, transport: "internal" };
      if (kind === "mutation" && !scope.inTransaction) {
        return this.#lock.run(() => this.#invoke(path, procedure, args, nested, scope));
      }
      return this.#invoke(path, procedure, args, nested, scope);
    };
  }

  /**
   * The registry path and procedure of a reference (`api.x.y`,
   * `internal.x.y`) or of a procedure value; anything else is the app's bug
   * and throws a plain error.
   */
  resolve(ref: unknown): { path: string; procedure: AnyProcedure } {
    if (isProcedure(ref)) {
      const path = this.#paths.get(ref);
      if (path === undefined)
        throw new Error("svc: ctx.run* was given a procedure that is not in the registry");
      return { path, procedure: ref };
    }
    const path = (ref as { path?: unknown } | null)?.path;
    const procedure =
      typeof path === "string" && Object.hasOwn(this.#deps.functions, path)
        ? this.#deps.functions[path]
        : undefined;
    if (typeof path !== "string" || procedure === undefined) {
      throw new Error(`svc: ctx.run* was given an unknown reference ${JSON.stringify(path)}`);
    }
    return { path, procedure };
  }
}

/** Checks a result (or a stream item) against `.output()`; a mismatch is a server bug. */
export function checkOutput(path: string, procedure: AnyProcedure, value: unknown): unknown {
  if (procedure.output === undefined) return value;
  const issues: Issue[] = [];
  procedure.output.check(value, { path: ROOT_PATH, issues });
  if (issues.length > 0) {
    const list = toValidationIssues("output", issues);
    throw new Error(
      `svc: ${path} returned a value that does not match its .output(): ${list[0]!.path}: ${list[0]!.message}`,
    );
  }
  return value;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
