import { DurableObject } from "cloudflare:workers";

import {
  createRateLimiter,
  DAY,
  MINUTE,
  RateLimitError,
  type RateLimitResult,
  RateLimitStore,
} from "../src/index.ts";
import type { LimitBatch, StoreReply } from "../src/store/protocol.ts";

export { RateLimitStore };

/** A store whose every call throws, as a store with failing storage would; it counts the calls. */
export class BrokenStore extends DurableObject {
  #calls = 0;

  async limit(): Promise<never> {
    this.#calls++;
    throw new Error("storage is on fire");
  }

  /** How many store calls reached this object. */
  calls(): number {
    return this.#calls;
  }
}

/** A store that never answers in time, as an overloaded or unreachable one. */
export class SilentStore extends DurableObject {
  async limit(): Promise<never> {
    await scheduler.wait(60_000);
    throw new Error("answered far too late");
  }
}

/** How long {@link SlowStore} takes to answer each store call (ms). */
export const SLOW_STORE_MS = 4_000;

/** The real store, answering each store call {@link SLOW_STORE_MS} late, as a distant or busy one. */
export class SlowStore extends RateLimitStore {
  override async limit(batch: LimitBatch): Promise<StoreReply> {
    await scheduler.wait(SLOW_STORE_MS);
    return super.limit(batch);
  }
}

/** The real store, bound by mistake without SQLite (`new_classes`). */
export class KvBackedStore extends RateLimitStore {}

/** The real store, counting the store calls it answers: how tests see what a burst cost. */
export class CountingStore extends RateLimitStore {
  #calls = 0;

  override async limit(batch: LimitBatch): Promise<StoreReply> {
    this.#calls++;
    return super.limit(batch);
  }

  /** How many store calls reached this object. */
  calls(): number {
    return this.#calls;
  }
}

/**
 * The time both limiters below decide at, mid-window and never moving: with
 * the store's own clock, a minute boundary falling between two store calls
 * of one test opened a fresh window and admitted a fifth call (a CI flake,
 * one run in ~30 for the paced test, whose calls span 2 s). Coalescing still
 * waits in real time; only the decisions' clock is fixed.
 */
const FROZEN_NOW = 20_000 * DAY + 30_000;

/** 5 per minute, counted in {@link CountingStore}: the limiter every request of this worker shares. */
export const requestLimiter = createRateLimiter({
  store: "COUNTING_STORE",
  rates: { perRequest: { kind: "fixed window", rate: 5, period: MINUTE } },
  clock: () => FROZEN_NOW,
});

/** {@link requestLimiter} with a long `coalesceMs`, so a test sees calls join whatever the machine's speed. */
export const pacedLimiter = createRateLimiter({
  store: "COUNTING_STORE",
  rates: { paced: { kind: "fixed window", rate: 5, period: MINUTE } },
  coalesceMs: 2_000,
  timeoutMs: 10_000,
  clock: () => FROZEN_NOW,
});

/**
 * {@link pacedLimiter} with a 10 s `coalesceMs`: a call held for a key's
 * pause waits seconds, which no loaded machine mistakes for a call sent at once.
 */
const longPacedLimiter = createRateLimiter({
  store: "COUNTING_STORE",
  rates: { longPaced: { kind: "fixed window", rate: 5, period: MINUTE } },
  coalesceMs: 10_000,
  timeoutMs: 30_000,
  clock: () => FROZEN_NOW,
});

/** {@link pacedLimiter} over a store that never answers in time: the deadline of calls made in an object. */
const silentLimiter = createRateLimiter({
  store: "SILENT_STORE",
  rates: { silent: { kind: "fixed window", rate: 5, period: MINUTE } },
  timeoutMs: 300,
});

/** A timeout longer than one {@link SlowStore} call and shorter than two: calls of a second batch may miss it. */
export const SLOW_TIMEOUT_MS = 7_000;

/** {@link pacedLimiter}'s rate over {@link SlowStore}. */
const slowLimiter = createRateLimiter({
  store: "SLOW_STORE",
  rates: { slow: { kind: "fixed window", rate: 5, period: MINUTE } },
  timeoutMs: SLOW_TIMEOUT_MS,
  clock: () => FROZEN_NOW,
});

/**
 * A Durable Object that limits inside itself (`inObject: this.ctx`), as a
 * shard's procedure or the REST gate decided in a shard does: each RPC call
 * is one `limit` call, so concurrent calls are separate requests of the object.
 */
export class LimitingObject extends DurableObject {
  /** One call of {@link pacedLimiter}'s rate for `key`, made in this object. */
  paced(key: string): Promise<RateLimitResult> {
    return pacedLimiter.limit("paced", { key, inObject: this.ctx });
  }

  /** One call of {@link longPacedLimiter}'s rate for `key`, made in this object. */
  longPaced(key: string): Promise<RateLimitResult> {
    return longPacedLimiter.limit("longPaced", { key, inObject: this.ctx });
  }

  /** One call of a store that never answers: the error's code and the milliseconds it took. */
  silent(key: string): Promise<TimedOutcome> {
    return timed(silentLimiter.limit("silent", { key, inObject: this.ctx }));
  }

  /** One call of {@link SlowStore}: the error's code (`ANSWERED` when it got a result) and the milliseconds it took. */
  slow(key: string): Promise<TimedOutcome> {
    return timed(slowLimiter.limit("slow", { key, inObject: this.ctx }));
  }
}

/** How a call made in {@link LimitingObject} ended: `ANSWERED` or the error's code, and how long it took. */
export interface TimedOutcome {
  code: string;
  ms: number;
}

async function timed(decision: Promise<RateLimitResult>): Promise<TimedOutcome> {
  const started = Date.now();
  try {
    await decision;
    return { code: "ANSWERED", ms: Date.now() - started };
  } catch (error) {
    const code = error instanceof RateLimitError ? error.code : "UNEXPECTED";
    return { code, ms: Date.now() - started };
  }
}

export default {
  /**
   * `GET /limit?key=`: one `limit` call in its own request, answered as JSON
   * (or the error's code); `&paced` through {@link pacedLimiter}.
   */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const key = url.searchParams.get("key") ?? "";
    try {
      if (url.searchParams.has("paced"))
        return Response.json(await pacedLimiter.limit("paced", { key }));
      return Response.json(await requestLimiter.limit("perRequest", { key }));
    } catch (error) {
      const code = error instanceof RateLimitError ? error.code : "UNEXPECTED";
      return Response.json({ error: code }, { status: 500 });
    }
  },
} satisfies ExportedHandler;
