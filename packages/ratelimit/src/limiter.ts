import type { RateLimitResult } from "./algorithms/result.ts";
import { RateLimitError } from "./errors.ts";
import { type Rate, type RateConfig, toRate } from "./rates.ts";
import { DEFAULT_COALESCE_MS, DecisionCoalescer, type SendBatch } from "./store/coalescer.ts";
import { within } from "./store/deadlines.ts";
import { whenSettled } from "./store/own-timers.ts";
import { type LeaseRequest, objectName } from "./store/protocol.ts";
import type { RateLimitStore } from "./store/rate-limit-store.ts";
import {
  callLease,
  callStore,
  isNamespace,
  noAnswer,
  type RateLimitStoreBinding,
  storeError,
} from "./store/store-client.ts";

/**
 * Options of {@link createRateLimiter}.
 *
 * @example
 * ```ts
 * const options: RateLimiterOptions<"api"> = {
 *   store: "RATE_LIMIT",
 *   rates: { api: { kind: "sliding window", rate: 100, period: MINUTE } },
 *   timeoutMs: 500,
 * };
 * ```
 */
export interface RateLimiterOptions<Name extends string> {
  /**
   * The {@link RateLimitStore} Durable Object namespace, or the name of its
   * binding. A name is looked up in `env` (from `cloudflare:workers`) on each
   * call, so the limiter can be built at module scope.
   */
  store: RateLimitStoreBinding;
  /** The named rates `limit` accepts. */
  rates: Record<Name, RateConfig>;
  /**
   * Milliseconds to wait for the store before `limit` rejects with a
   * {@link RateLimitStoreError}: each call's own, from its start, also when
   * it shares a store call with other calls of its key. A call that times out
   * may still have been counted.
   * @default 1000
   */
  timeoutMs?: number;
  /**
   * Least milliseconds between two store calls of one key from one isolate
   * (exact rates): calls of a busy key that come meanwhile wait and go
   * together in the next store call, decided in order as one by one. A
   * store that answers slower than this is never waited for longer; a key
   * called now and then is sent at once. 0 sends each batch as soon as the
   * one before it is answered.
   * @default 5
   */
  coalesceMs?: number;
  /**
   * Test hook: a clock (ms) whose reading is sent with each call, so tests can
   * move time. Without it the store uses its own clock, the one clock every
   * caller of a key then shares. Time never runs backwards for a key: a reading
   * older than one already counted is taken as that one.
   */
  clock?: () => number;
}

/**
 * Options of one {@link RateLimiter.limit} call.
 *
 * @example
 * ```ts
 * await limiter.limit("upload", { key: userId, count: batch.length });
 * ```
 */
export interface LimitOptions {
  /** Who is limited: an IP, a user id, an API key... Each key of each rate is counted apart. */
  key: string;
  /**
   * Units this call spends (e.g. bytes, or a batch size): a positive integer
   * no larger than the rate's `limit`.
   * @default 1
   */
  count?: number;
  /**
   * The Durable Object this call is made in: its `ctx` (any object that is
   * the same for every call of one object). Its calls of a hot key then await
   * their shared store call's promise, as the object's requests may, instead
   * of each waking on timers of its own, which inside an object cost about
   * three times as much (docs/ratelimit.md, Cost). Omit it in a worker.
   *
   * @example
   * ```ts
   * await limiter.limit("api", { key: userId, inObject: this.ctx });
   * ```
   */
  inObject?: object;
}

/**
 * A limiter: counts calls per (rate name, key) against the named rates it was
 * built with. Structurally the `RateLimiter` interface `@svc/server`'s REST
 * gate accepts, so it is passed there as is.
 *
 * @example
 * ```ts
 * const limiter: RateLimiter<"api"> = createRateLimiter({ store: "RATE_LIMIT", rates: { api } });
 * ```
 */
export interface RateLimiter<Name extends string = string> {
  /**
   * Spends `count` units of `key` under the rate `name`, or refuses without
   * spending anything. Rejects with {@link RateLimitStoreError} when the store
   * cannot answer (never resolves `ok: true` then), and with a
   * {@link RateLimitError} for an unknown `name` or a bad `key`/`count`.
   *
   * @example
   * ```ts
   * const { ok, retryAfter } = await limiter.limit("api", { key: ip });
   * ```
   */
  // `string & {}` keeps editor completion of the configured names while still
  // accepting any string, so the limiter fits interfaces typed `name: string`.
  limit(name: Name | (string & {}), options: LimitOptions): Promise<RateLimitResult>;
  /**
   * What `limit` does first, without a promise: spends `count` units of `key`
   * from the lease this isolate holds for the leased rate `name`, or answers
   * `undefined` when it holds none big enough (or the rate is exact) and
   * only `limit` can decide. Throws a {@link RateLimitError} for an unknown
   * `name` or a bad `key`/`count`. For a gate on every request: one settled
   * promise and its turn of the microtask queue fewer per call.
   *
   * @example
   * ```ts
   * const result = limiter.spendLease("api", { key: ip }) ?? (await limiter.limit("api", { key: ip }));
   * ```
   */
  spendLease(name: Name | (string & {}), options: LimitOptions): RateLimitResult | undefined;
}

const DEFAULT_TIMEOUT_MS = 1000;

function checkOptions<Name extends string>(options: RateLimiterOptions<Name>): Map<string, Rate> {
  const { store, rates, timeoutMs, coalesceMs } = options;
  if (typeof store !== "string" && !isNamespace(store))
    throw new RateLimitError(
      "INVALID_CONFIG",
      "svc ratelimit: store must be the RateLimitStore Durable Object namespace or its binding name",
    );
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0))
    throw new RateLimitError(
      "INVALID_CONFIG",
      "svc ratelimit: timeoutMs must be a positive number of milliseconds",
    );
  if (coalesceMs !== undefined && !(Number.isFinite(coalesceMs) && coalesceMs >= 0))
    throw new RateLimitError(
      "INVALID_CONFIG",
      "svc ratelimit: coalesceMs must be a number of milliseconds, 0 or more",
    );
  if (typeof rates !== "object" || rates === null || Object.keys(rates).length === 0)
    throw new RateLimitError("INVALID_CONFIG", "svc ratelimit: rates must name at least one rate");
  const entries = Object.entries<RateConfig>(rates);
  return new Map(entries.map(([name, config]) => [name, toRate(name, config)]));
}

/** The rate `name` names, or an `UNKNOWN_RATE` error listing the names there are. */
function rateNamed(rates: Map<string, Rate>, name: string): Rate {
  const rate = rates.get(name);
  if (rate !== undefined) return rate;
  throw new RateLimitError(
    "UNKNOWN_RATE",
    `svc ratelimit: no rate named ${JSON.stringify(name)}; known: ${[...rates.keys()].map((n) => JSON.stringify(n)).join(", ")}`,
  );
}

/** The units a call of `rate` spends, once its key and count are checked (`INVALID_ARGUMENT`). */
function unitsOf(rate: Rate, name: string, options: LimitOptions): number {
  if (typeof options?.key !== "string")
    throw new RateLimitError("INVALID_ARGUMENT", "svc ratelimit: limit needs a string key");
  const count = options.count ?? 1;
  if (!Number.isSafeInteger(count) || count <= 0)
    throw new RateLimitError(
      "INVALID_ARGUMENT",
      `svc ratelimit: count must be a positive integer, got ${String(count)}`,
    );
  if (count > rate.capacity)
    throw new RateLimitError(
      "INVALID_ARGUMENT",
      `svc ratelimit: count ${count} exceeds the limit ${rate.capacity} of rate ${JSON.stringify(name)}, so it could never be allowed`,
    );
  return count;
}

/**
 * Builds a limiter over named rates whose counts live in the
 * {@link RateLimitStore} Durable Object, one object per (rate name, key), so
 * counts are exact across isolates and concurrent requests. Concurrent calls
 * of one key share store calls (see {@link DecisionCoalescer}), decided in
 * order as if made one by one. Configuration mistakes throw here, before
 * anything is served.
 *
 * @example
 * ```ts
 * import { createRateLimiter, MINUTE, SECOND } from "@svc/ratelimit";
 *
 * export const limiter = createRateLimiter({
 *   store: "RATE_LIMIT",
 *   rates: {
 *     api: { kind: "sliding window", rate: 100, period: MINUTE },
 *     upload: { kind: "token bucket", rate: 10, period: SECOND, capacity: 50 },
 *   },
 * });
 *
 * const { ok, retryAfter } = await limiter.limit("api", { key: request.headers.get("cf-connecting-ip") ?? "anonymous" });
 * ```
 */
export function createRateLimiter<const Name extends string>(
  options: RateLimiterOptions<Name>,
): RateLimiter<Name> {
  const rates = checkOptions(options);
  const { store, clock } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const leases = new LeaseCache(clock ?? Date.now);
  /** A call of rate `name` that had no answer within `timeoutMs`: every wait's one error. */
  const lateError = (name: string) => storeError(name, noAnswer(timeoutMs));
  const coalesceMs = options.coalesceMs ?? DEFAULT_COALESCE_MS;
  const send: SendBatch = (target, decisions) =>
    callStore(store, target.name, target.key, { rate: target.rate, decisions });
  const coalescer = new DecisionCoalescer(timeoutMs, coalesceMs, send, lateError, "own timers");
  /** Per Durable Object (`inObject`): its calls share promises, which a worker's requests may not. */
  const objectCoalescers = new WeakMap<object, DecisionCoalescer>();
  const coalescerOf = (owner: object | undefined) => {
    if (owner === undefined) return coalescer;
    let own = objectCoalescers.get(owner);
    if (own === undefined) {
      own = new DecisionCoalescer(timeoutMs, coalesceMs, send, lateError, "shared promise");
      objectCoalescers.set(owner, own);
    }
    return own;
  };
  /** Spends `count` exactly, coalesced with the other calls of the key in this isolate (or object). */
  const decide = (
    name: string,
    key: string,
    rate: Rate,
    count: number,
    now: number | undefined,
    owner: object | undefined,
  ) => coalescerOf(owner).decide(name, key, rate, now === undefined ? { count } : { count, now });
  /** A leased rate's call that this isolate's lease of the key cannot pay: a lease request, or the store's decision. */
  const ask = async (
    name: string,
    key: string,
    rate: LeasedRate,
    count: number,
    owner: object | undefined,
  ) => {
    const now = clock?.();
    const { lease } = rate;
    // While this isolate already asks for a lease of the key, a call waits for that lease
    // and spends from it: a second lease would be waste, and deciding exactly meanwhile
    // cost a store call per concurrent request at every renewal. A lease too small
    // (or refused) leaves the call to spend just its own units, exactly (coalesced).
    const asking = leases.pending(name, key);
    if (asking !== undefined) {
      const started = Date.now();
      // Read on this call's own timers, never by awaiting the asking request's promise (see `whenSettled`).
      const settled = await whenSettled(asking, 1, started + timeoutMs);
      if (!settled) throw lateError(name);
      // The store could not grant it; it would not decide either.
      if (asking.failure !== undefined) throw asking.failure;
      const spent = leases.take(name, key, count, rate.capacity);
      if (spent !== undefined) return spent;
      // Within the call's own timeout, counted from its start (the wait included).
      const left = Math.max(0, timeoutMs - (Date.now() - started));
      return within(decide(name, key, rate, count, now, owner), left, () => lateError(name));
    }
    const request: LeaseRequest = {
      rate,
      units: Math.max(lease.units, count),
      minimum: count,
      ...(now === undefined ? {} : { now }),
    };
    const granting = callLease(store, name, key, request, timeoutMs).then(({ granted, result }) => {
      if (granted > count) leases.put(name, key, granted - count, lease.ttlMs);
      return result;
    });
    const asked = leases.asking(name, key);
    try {
      return await granting;
    } catch (error) {
      asked.failure = error;
      throw error;
    } finally {
      leases.asked(name, key, asked);
    }
  };
  return {
    spendLease(name, callOptions) {
      const rate = rateNamed(rates, name);
      const count = unitsOf(rate, name, callOptions);
      // Units spent from this isolate's lease of the key; `undefined` when it holds too few.
      return isLeased(rate) ? leases.take(name, callOptions.key, count, rate.capacity) : undefined;
    },
    // Not async: a call spent from a lease is answered with one settled promise, and an exact
    // call with its decision's own promise, no async frame (the gates' every request;
    // BENCHMARKS.md section 1a). Errors still reject.
    limit(name, callOptions) {
      try {
        const rate = rateNamed(rates, name);
        const count = unitsOf(rate, name, callOptions);
        const { key, inObject } = callOptions;
        if (!isLeased(rate)) return decide(name, key, rate, count, clock?.(), inObject);
        const local = leases.take(name, key, count, rate.capacity);
        return local === undefined ? ask(name, key, rate, count, inObject) : Promise.resolve(local);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

/** A rate counted in the leased mode: its `lease` settings are there. */
type LeasedRate = Rate & { lease: NonNullable<Rate["lease"]> };

/** True for a rate counted in the leased mode. */
function isLeased(rate: Rate): rate is LeasedRate {
  return rate.lease !== null;
}

/** A lease request in flight, as the calls of its key that wait for it see it. */
interface LeaseAsking {
  /** True once the answer is in the cache (or the request failed). */
  settled: boolean;
  /** Why the request failed; `undefined` while it has not. */
  failure: unknown;
}

/** Most keys one limiter keeps leases for; beyond it the cache starts afresh. */
const MAX_LEASED_KEYS = 10_000;

/** Units of one key that this isolate took from the store, spendable until `expiresAt` (ms). */
interface Lease {
  units: number;
  expiresAt: number;
}

/** The leased mode's per-isolate allowances: units taken from the store, spent without asking it. */
class LeaseCache {
  readonly #clock: () => number;
  /**
   * Per rate name, then per key: a call finds its lease with two map lookups
   * and builds nothing (an `objectName` string per call was garbage on the
   * leased gate's every request).
   */
  readonly #leases = new Map<string, Map<string, Lease>>();
  /** Leases held, over every name. */
  #size = 0;
  /** Per (name, key): this isolate's lease request of it in flight. */
  readonly #asking = new Map<string, LeaseAsking>();

  constructor(clock: () => number) {
    this.#clock = clock;
  }

  /** Spends `count` from a valid lease of (name, key); `undefined` when there is none big enough. */
  take(name: string, key: string, count: number, limit: number): RateLimitResult | undefined {
    const leases = this.#leases.get(name);
    const lease = leases?.get(key);
    if (leases === undefined || lease === undefined) return undefined;
    if (lease.expiresAt <= this.#clock() || lease.units < count) {
      this.#drop(leases, key);
      return undefined;
    }
    lease.units -= count;
    if (lease.units === 0) this.#drop(leases, key);
    return { ok: true, retryAfter: 0, limit, remaining: lease.units, resetAfter: 0 };
  }

  /** This isolate's lease request of (name, key) in flight, if any: calls of the key wait for it. */
  pending(name: string, key: string): LeaseAsking | undefined {
    return this.#asking.get(objectName(name, key));
  }

  /** Notes that this isolate asks the store for a lease of (name, key); {@link asked} when it is over. */
  asking(name: string, key: string): LeaseAsking {
    const asking: LeaseAsking = { settled: false, failure: undefined };
    this.#asking.set(objectName(name, key), asking);
    return asking;
  }

  /** Marks the lease request `asking` of (name, key) over: its answer is in this cache, or its failure is in it. */
  asked(name: string, key: string, asking: LeaseAsking): void {
    asking.settled = true;
    const id = objectName(name, key);
    if (this.#asking.get(id) === asking) this.#asking.delete(id);
  }

  /** Adds `units` to (name, key)'s lease (what is left of a valid one is kept), valid `ttlMs` from now. */
  put(name: string, key: string, units: number, ttlMs: number): void {
    if (this.#size >= MAX_LEASED_KEYS) {
      this.#leases.clear();
      this.#size = 0;
    }
    let leases = this.#leases.get(name);
    if (leases === undefined) {
      leases = new Map();
      this.#leases.set(name, leases);
    }
    const now = this.#clock();
    const current = leases.get(key);
    const kept = current !== undefined && current.expiresAt > now ? current.units : 0;
    if (current === undefined) this.#size++;
    leases.set(key, { units: kept + units, expiresAt: now + ttlMs });
  }

  #drop(leases: Map<string, Lease>, key: string): void {
    if (leases.delete(key)) this.#size--;
  }
}
