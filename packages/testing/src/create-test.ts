import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { ArgsOf, OutputOf } from "@svc/client";
import {
  type FunctionReference,
  type Identity,
  type MutationCtx,
  type ProcedureKind,
  SvcError,
} from "@svc/server";
import {
  checkShardKey,
  DEFAULT_SHARD,
  deserializeError,
  refuseOutOfScope,
  type ScheduledEndpoint,
  SHARD_IN_ISOLATE,
  type ShardCall,
  type ShardEndpoint,
  type ShardInIsolate,
} from "@svc/server/internal";
import { parseJson } from "@svc/server/json";
import { apiKeyIdentity, type TestApiKey, type TestUser, userIdentity } from "./identities.ts";
import { runRounds } from "./scheduled-rounds.ts";
import { type TestStorage, testStorage } from "./storage.ts";
import { overTheWire } from "./wire.ts";

/**
 * Options of {@link createTest}.
 *
 * @example
 * ```ts
 * const t = createTest({ shards: env.CHAT_SHARDS }); // a shard binding not named SHARD
 * ```
 */
export interface CreateTestOptions {
  /**
   * The app's shard Durable Object namespace: the class the worker exports
   * from `createShard({ schema, functions })`, which already holds the
   * schema and the procedures the harness runs.
   * @default env.SHARD
   */
  shards?: DurableObjectNamespace;
}

/**
 * What `t.run` hands its callback: a privileged `ctx.db` (no RLS) of the harness's shard.
 *
 * @example
 * ```ts
 * await t.run(({ db }) => db.insert("notes", { owner: "bob", text: "seeded" }));
 * ```
 */
export interface TestRunCtx {
  db: MutationCtx["db"];
  shardKey: string;
}

/** The arguments after the reference: optional when the procedure takes none. */
type ArgsParam<Ref> =
  Record<string, never> extends ArgsOf<Ref> ? [args?: ArgsOf<Ref>] : [args: ArgsOf<Ref>];

/**
 * An app under test: calls its procedures as one caller in one shard. Every
 * `as*` and `shard` answers a new harness over the same storage.
 *
 * @example
 * ```ts
 * const ann: TestHarness = createTest().as({ userId: "ann" });
 * await ann.shard("room-2").mutation(api.messages.send, { body: "hi" });
 * ```
 */
export interface TestHarness {
  /** The shard key calls run in (`ctx.meta.shardKey`). */
  readonly shardKey: string;
  /**
   * The shard's Durable Object stub, for the plugin's own helpers
   * (`runDurableObjectAlarm(t.stub)` runs the shard's due alarm).
   */
  readonly stub: DurableObjectStub;
  /**
   * The shard's files (`ctx.storage` with RLS off): store a file as this
   * harness's user would, read back the bytes and metadata a call stored.
   */
  readonly storage: TestStorage;
  query<Ref extends FunctionReference<"query">>(
    ref: Ref,
    ...args: ArgsParam<Ref>
  ): Promise<OutputOf<Ref>>;
  mutation<Ref extends FunctionReference<"mutation">>(
    ref: Ref,
    ...args: ArgsParam<Ref>
  ): Promise<OutputOf<Ref>>;
  action<Ref extends FunctionReference<"action">>(
    ref: Ref,
    ...args: ArgsParam<Ref>
  ): Promise<OutputOf<Ref>>;
  /** Calls as this signed-in user, as `sessionIdentity` would resolve them. */
  as(user: TestUser): TestHarness;
  /** Calls with this API key: its scopes are checked as the worker checks them. */
  asApiKey(key: TestApiKey): TestHarness;
  /**
   * Calls as the app's service (`cron:<job>` or `queue:<queue>`), as cron jobs
   * and consumers run; any other name throws `BAD_REQUEST`.
   */
  asService(service: `cron:${string}` | `queue:${string}`): TestHarness;
  /** The same caller in another shard (its own SQLite database). */
  shard(key: string): TestHarness;
  /**
   * Runs `work` inside the shard with a privileged `ctx.db`: RLS off, schema
   * validation on, one transaction under the mutation lock, live queries told
   * on commit (the data studio's operator write). For seeding and for reading
   * what RLS hides.
   */
  run<T>(work: (ctx: TestRunCtx) => Promise<T>): Promise<T>;
  /**
   * Runs every job this shard has scheduled (`ctx.scheduler`), however far
   * ahead it is due, without waiting: the alarm's own path, so a scheduled
   * mutation runs exactly once in its own transaction and a failing action is
   * retried to `failed`. Jobs those jobs schedule run too, in rounds: each
   * round runs the jobs due when it began, each once. Answers how many ran;
   * still due after 100 rounds (a job that schedules itself again), it
   * rejects with `CONFLICT`. A job handed to another shard (`options.shardKey`)
   * goes to that shard's real name, outside this test's storage.
   */
  finishAllScheduled(): Promise<number>;
  /**
   * Runs this shard's jobs due within `ms` from now, as if that much time had
   * passed: one round, each due job once (and a failing action's retries due
   * within `ms`); the jobs they schedule wait for the next call, so a job that
   * schedules itself again runs once per call. Answers how many ran; rejects
   * with `BAD_REQUEST` unless `ms` is a finite number of 0 or more.
   */
  runScheduledWithin(ms: number): Promise<number>;
}

/** Who calls: a user or key (`identity`), or the app's service. */
interface Caller {
  identity: Identity | null;
  service: string | null;
}

/** One test's storage: its shards' objects are named under a prefix no other test uses. */
interface World {
  namespace: DurableObjectNamespace;
  prefix: string;
}

const ANONYMOUS: Caller = { identity: null, service: null };

/** The services an app has: its cron jobs and its queue consumers (types say so; plain JS may not). */
function checkService(service: string): string {
  if (typeof service !== "string" || !/^(cron|queue):./.test(service))
    throw new SvcError(
      "BAD_REQUEST",
      `@svc/testing: asService takes cron:<job> or queue:<queue>, not ${JSON.stringify(service)}`,
    );
  return service;
}

/** A window of `runScheduledWithin`: `NaN` or a negative one would silently run nothing. */
function checkWindow(ms: number): number {
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0)
    throw new SvcError(
      "BAD_REQUEST",
      `@svc/testing: runScheduledWithin takes a finite number of 0 or more milliseconds, not ${String(ms)} (finishAllScheduled runs every job)`,
    );
  return ms;
}

/**
 * Starts a test of the app's procedures: anonymous calls to the `default`
 * shard, in storage no other test sees. It runs inside workerd under
 * `@cloudflare/vitest-plugin` and drives the shard class the worker exports,
 * so calls take the production path from the shard's door on: argument
 * validation, middleware, RLS compiled into SQLite, transactions, output
 * checks and limits. Identities are given directly: no sign-up, no D1.
 *
 * Each call of `createTest` names its shards' Durable Objects under a fresh
 * random prefix, so tests never share rows, in one run or across
 * `vitest --watch` re-runs, whatever the plugin keeps on disk.
 *
 * @example
 * ```ts
 * const t = createTest();
 * const id = await t.as({ userId: "ann" }).mutation(api.notes.add, { text: "hi" });
 * expect(await t.as({ userId: "bob" }).query(api.notes.list)).toEqual([]);
 * ```
 */
export function createTest(options: CreateTestOptions = {}): TestHarness {
  const namespace = options.shards ?? defaultNamespace();
  return harness({ namespace, prefix: `test-${crypto.randomUUID()}/` }, ANONYMOUS, DEFAULT_SHARD);
}

function defaultNamespace(): DurableObjectNamespace {
  const binding = (env as unknown as Record<string, unknown>).SHARD;
  if (binding === null || typeof binding !== "object" || !("getByName" in binding)) {
    throw new TypeError(
      "@svc/testing: no SHARD Durable Object binding; pass createTest({ shards: env.<binding> })",
    );
  }
  return binding as DurableObjectNamespace;
}

function harness(world: World, caller: Caller, shardKey: string): TestHarness {
  const stub = world.namespace.getByName(`${world.prefix}${shardKey}`);
  const endpoint = stub as unknown as ShardEndpoint;
  const call = async (kind: ProcedureKind, ref: FunctionReference, args: unknown) => {
    if (ref.kind !== kind) {
      throw new TypeError(`@svc/testing: t.${kind} was given ${ref.path}, a ${ref.kind}`);
    }
    const fromClient = ref.visibility === "public" && caller.service === null;
    if (fromClient) refuseOutOfScope(caller.identity?.apiKey, { path: ref.path, kind });
    const shardCall: ShardCall = {
      path: ref.path,
      args: overTheWire(args ?? {}),
      ...caller,
      transport: caller.service?.startsWith("queue:") ? "queue" : caller.service ? "cron" : "rpc",
      requestId: crypto.randomUUID(),
      shardKey,
      // Answered as the worker's invokeJson asks: encoded in the shard, so a class instance
      // comes back as its fields and a value JSON cannot carry (a cycle) as INTERNAL.
      answerAs: "json",
    };
    const result = await endpoint.call(fromClient ? shardCall : { ...shardCall, fromServer: true });
    if (!result.ok) throw deserializeError(result.error);
    return parseJson(result.json ?? "null");
  };
  const as = (next: Caller) => harness(world, next, shardKey);
  const scheduled = stub as unknown as ScheduledEndpoint;
  return {
    shardKey,
    stub,
    storage: testStorage(stub, caller.identity?.userId ?? null),
    query: (ref, ...[args]) => call("query", ref, args) as never,
    mutation: (ref, ...[args]) => call("mutation", ref, args) as never,
    action: (ref, ...[args]) => call("action", ref, args) as never,
    as: (user) => as({ identity: userIdentity(user), service: null }),
    asApiKey: (key) => as({ identity: apiKeyIdentity(key), service: null }),
    asService: (service) => as({ identity: null, service: checkService(service) }),
    shard: (key) => harness(world, caller, checkShardKey(key)),
    finishAllScheduled: () => runRounds(scheduled, Number.MAX_SAFE_INTEGER),
    runScheduledWithin: async (ms) => scheduled.runScheduled(Date.now() + checkWindow(ms)),
    run: (work) =>
      runInDurableObject(stub, (instance: object) => {
        const door = (instance as { [SHARD_IN_ISOLATE]?: ShardInIsolate })[SHARD_IN_ISOLATE];
        if (door === undefined) {
          throw new TypeError("@svc/testing: the shard binding's class is not createShard's");
        }
        return door.write({ shardKey, path: "test:run" }, (db) =>
          work({ db: db as unknown as TestRunCtx["db"], shardKey }),
        );
      }),
  };
}
