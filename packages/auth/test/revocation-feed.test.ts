import { describe, expect, it } from "vitest";
import {
  REVOCATION_READ_LIMIT,
  type Revocation,
  type RevocationRead,
} from "../src/revocation/log-reader.ts";
import { RevocableCache } from "../src/revocation/revocable-cache.ts";
import { type RevocationEvent, RevocationFeed } from "../src/revocation/revocation-feed.ts";

/** An in-memory log, read as `d1RevocationReader` reads svc_revocation. */
function memoryLog() {
  let rows: Revocation[] = [];
  let next = 1;
  const log = {
    reads: 0,
    failing: false,
    /** Holds reads until released, to put a read in flight. */
    gate: null as Promise<void> | null,
    append(kind: string, id: string) {
      rows.push({ seq: next++, kind, id });
    },
    prune(below: number) {
      rows = rows.filter((row) => row.seq >= below);
    },
    async read(cursor: number | null): Promise<RevocationRead> {
      log.reads += 1;
      if (log.gate) await log.gate;
      if (log.failing) throw new Error("no such table: svc_revocation");
      return {
        oldest: rows[0]?.seq ?? null,
        newest: rows[rows.length - 1]?.seq ?? null,
        entries:
          cursor === null
            ? []
            : rows.filter((row) => row.seq > cursor).slice(0, REVOCATION_READ_LIMIT),
      };
    },
  };
  return log;
}

function manualClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function feedOver(log: ReturnType<typeof memoryLog>, clock = manualClock()) {
  const feed = new RevocationFeed((cursor) => log.read(cursor), {
    withinMs: 500,
    clock: clock.now,
  });
  const events: RevocationEvent[] = [];
  feed.subscribe((event) => events.push(event));
  return { feed, events, clock };
}

/** A cache of session/user pairs over a fresh log and feed, on a manual clock. */
function cacheOver(maxEntries: number) {
  const log = memoryLog();
  const { feed, clock } = feedOver(log);
  const cache = new RevocableCache<{ session: string; user: string }>(feed, {
    ttlMs: 60_000,
    maxEntries,
    clock: clock.now,
  });
  return { log, feed, clock, cache };
}

describe("RevocationFeed", () => {
  it("reads the log once per bound while asked, in the background from half of it", async () => {
    const log = memoryLog();
    const { feed, clock } = feedOver(log);
    expect(await feed.fresh()).toBe(true);
    expect(log.reads).toBe(1);
    clock.advance(249);
    expect(await feed.fresh()).toBe(true);
    expect(log.reads).toBe(1);
    clock.advance(1); // half the bound: served at once, a read starts behind it
    expect(await feed.fresh()).toBe(true);
    expect(log.reads).toBe(2);
    clock.advance(10_000); // idle for long: the next call waits for a read
    let release = () => {};
    log.gate = new Promise((resolve) => {
      release = resolve;
    });
    let settled = false;
    const waiting = feed.fresh().then(() => (settled = true));
    await scheduler.wait(20);
    expect(settled).toBe(false);
    expect(log.reads).toBe(3);
    log.gate = null;
    release();
    await waiting;
    expect(settled).toBe(true);
  });

  it("passes on new rows in order and drops everything when it may have missed some", async () => {
    const log = memoryLog();
    log.append("session", "before-first-read");
    const { feed, events, clock } = feedOver(log);
    await feed.fresh();
    expect(events).toEqual([]); // nothing cached before the first read: nothing to evict

    log.append("session", "s1");
    log.append("user", "u1");
    clock.advance(500);
    await feed.fresh();
    expect(events).toEqual([
      [
        { seq: 2, kind: "session", id: "s1" },
        { seq: 3, kind: "user", id: "u1" },
      ],
    ]);

    // Pruned past the cursor while this isolate was away: it cannot know what it missed.
    log.append("session", "s2");
    log.append("session", "s3");
    log.prune(5);
    clock.advance(500);
    await feed.fresh();
    expect(events[1]).toBe("all");

    // More rows than one read carries.
    for (let n = 0; n < REVOCATION_READ_LIMIT; n++) log.append("session", `bulk-${n}`);
    clock.advance(500);
    await feed.fresh();
    expect(events[2]).toBe("all");
    expect(events).toHaveLength(3);
  });

  it("answers not fresh while the log cannot be read, retrying after a second, saying so once", async () => {
    const log = memoryLog();
    log.failing = true;
    const { feed, clock } = feedOver(log);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args[0]);
    try {
      expect(await feed.fresh()).toBe(false);
      expect(await feed.fresh()).toBe(false);
      expect(log.reads).toBe(1);
      clock.advance(1_000);
      expect(await feed.fresh()).toBe(false);
      expect(log.reads).toBe(2);
      expect(errors).toEqual([expect.stringContaining("revocation log cannot be read")]);
      log.failing = false;
      clock.advance(1_000);
      expect(await feed.fresh()).toBe(true);
    } finally {
      console.error = original;
    }
  });

  it("after expire, reads again before answering, ignoring a read sent before", async () => {
    const log = memoryLog();
    const { feed, events, clock } = feedOver(log);
    await feed.fresh();
    clock.advance(300);
    let release = () => {};
    log.gate = new Promise((resolve) => {
      release = resolve;
    });
    await feed.fresh(); // starts a background read, held at the gate
    log.append("session", "signed-out");
    feed.expire();
    const answer = feed.fresh();
    log.gate = null;
    release();
    expect(await answer).toBe(true);
    expect(log.reads).toBe(3);
    expect(events).toEqual([[{ seq: 1, kind: "session", id: "signed-out" }]]);
  });

  it("tells whether a row naming an id arrived since a mark", async () => {
    const log = memoryLog();
    const { feed, clock } = feedOver(log);
    await feed.fresh();
    const mark = feed.mark();
    log.append("session", "other");
    clock.advance(500);
    await feed.fresh();
    expect(feed.revokedSince(mark, [["session", "mine"]])).toBe(false);
    log.append("user", "me");
    clock.advance(500);
    await feed.fresh();
    expect(
      feed.revokedSince(mark, [
        ["session", "mine"],
        ["user", "me"],
      ]),
    ).toBe(true);
    expect(feed.revokedSince(feed.mark(), [["user", "me"]])).toBe(false);
  });
});

describe("RevocableCache", () => {
  const tagged = (value: { session: string; user: string }) => ({
    revokedBy: [
      ["session", value.session],
      ["user", value.user],
    ] as const,
  });

  it("serves a loaded value until the log names it, then loads again", async () => {
    const { log, clock, cache } = cacheOver(10);
    let loads = 0;
    const load = async () => {
      loads += 1;
      return { session: "s1", user: "u1" };
    };
    await cache.get("cookie", load, tagged);
    await cache.get("cookie", load, tagged);
    expect(loads).toBe(1);
    log.append("user", "u1");
    clock.advance(200);
    await cache.get("cookie", load, tagged);
    expect(loads).toBe(1); // not read yet: served from the cache within the bound
    clock.advance(300);
    await cache.get("cookie", load, tagged);
    expect(loads).toBe(2);
    clock.advance(60_000);
    await cache.get("cookie", load, tagged);
    expect(loads).toBe(3);
  });

  it("does not keep a value whose revocation arrived while it was being loaded", async () => {
    const { log, feed, clock, cache } = cacheOver(10);
    await feed.fresh();
    let loads = 0;
    const racing = async () => {
      loads += 1;
      // The load read the session; meanwhile it is deleted and another request's read sees that.
      log.append("session", "s1");
      clock.advance(500);
      await feed.fresh();
      return { session: "s1", user: "u1" };
    };
    await cache.get("cookie", racing, tagged);
    expect(cache.size).toBe(0);
    expect(loads).toBe(1);
  });

  it("keeps values loaded together for different times within ttlMs, so they expire apart", async () => {
    const { clock, cache } = cacheOver(1_000);
    let loads = 0;
    const load = (key: string) => async () => {
      loads += 1;
      return { session: key, user: key };
    };
    const keys = Array.from({ length: 200 }, (_, index) => `caller-${index}`);
    const readAll = async () => {
      loads = 0;
      for (const key of keys) await cache.get(key, load(key), tagged);
      return loads;
    };
    expect(await readAll()).toBe(200);
    // Every value is kept for at least three quarters of ttlMs (60 s here)...
    clock.advance(44_900);
    expect(await readAll()).toBe(0);
    // ...some expire between then and ttlMs, not all at once...
    clock.advance(7_600); // 52.5 s since loaded: past the first quarter of the spread
    const expiredEarly = await readAll();
    expect(expiredEarly).toBeGreaterThan(0);
    expect(expiredEarly).toBeLessThan(200);
    // ...and none outlives ttlMs: at 60 s every first value left is read again, none reloaded since.
    clock.advance(7_500);
    expect(await readAll()).toBe(200 - expiredEarly);
  });

  it("keeps nothing for a lookup that found nothing, and at most maxEntries", async () => {
    const { cache } = cacheOver(2);
    expect(await cache.get("nobody", async () => null, tagged)).toBeNull();
    for (const key of ["a", "b", "c"])
      await cache.get(key, async () => ({ session: key, user: key }), tagged);
    expect(cache.size).toBe(2);
  });
});
