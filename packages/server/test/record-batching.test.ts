/**
 * How a busy isolate's call records reach the log store: batches grow with
 * the traffic (fewer writes, each with a fixed cost, under load) and a quiet
 * isolate's record is still written about 100 ms after its call. The writes
 * go to the real log store; a wrapper around its namespace only notes each
 * write's size and time on the way through.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CallRecord } from "../src/index.ts";
import { partitionName } from "../src/observability/plan.ts";
import { BUSY_FLUSH_DELAY_MS, FLUSH_DELAY_MS, StoreShipper } from "../src/observability/shipper.ts";
import type { LogStoreEndpoint } from "../src/observability/store/endpoint.ts";
import { callRecord } from "./call-record.ts";

/** A partition no worker of the test project writes to. */
const PARTITION = 7;

interface Write {
  at: number;
  size: number;
}

/** The real `SVC_LOGS` namespace, with each write's size and time noted. */
function notedStore(): { env: { SVC_LOGS: unknown }; writes: Write[] } {
  const writes: Write[] = [];
  const real = env.SVC_LOGS;
  const namespace = {
    getByName(name: string) {
      const stub = real.getByName(name) as unknown as LogStoreEndpoint;
      return {
        write(batch: string[], options?: { console?: boolean }) {
          writes.push({ at: Date.now(), size: batch.length });
          return stub.write(batch, options);
        },
      };
    },
  };
  return { env: { SVC_LOGS: namespace }, writes };
}

let sequence = 0;
function record(tag: string): CallRecord {
  sequence++;
  return callRecord({ requestId: `${tag}-${sequence}`, route: "batching:call" });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function shipper(): StoreShipper {
  return new StoreShipper({ console: false, store: "SVC_LOGS", partitions: 8 }, PARTITION);
}

/** `count` calls at about one a millisecond, however long each pause takes; then their writes. */
async function busySpell(
  ships: StoreShipper,
  store: ReturnType<typeof notedStore>,
  lifetime: ExecutionContext,
  tag: string,
  count: number,
): Promise<void> {
  const started = Date.now();
  for (let pushed = 0; pushed < count; await pause(5)) {
    const due = Math.min(count, Date.now() - started + 1);
    for (; pushed < due; pushed++) ships.push(record(tag), store.env, lifetime);
  }
  await waitOnExecutionContext(lifetime);
}

async function storedIds(tag: string): Promise<string[]> {
  const store = env.SVC_LOGS.getByName(partitionName(PARTITION)) as unknown as LogStoreEndpoint;
  const rows = await store.list({}, null, 2_000);
  return rows.map((row) => row.record.requestId).filter((id) => id.startsWith(`${tag}-`));
}

describe("record batches", () => {
  it("grow while calls are many: fewer, fuller writes, every record stored", async () => {
    const store = notedStore();
    const lifetime = createExecutionContext();
    const ships = shipper();
    await busySpell(ships, store, lifetime, "busy", 1_200);
    const sizes = store.writes.map((write) => write.size);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(1_200);
    // A fixed 100 ms wait made 12 or more writes here; growing waits make far fewer, fuller ones.
    expect(sizes.length).toBeLessThanOrEqual(6);
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(3 * sizes[0]!);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(500);
    expect((await storedIds("busy")).length).toBe(1_200);
  });

  it("go back to a short wait once calls are few", async () => {
    const store = notedStore();
    const lifetime = createExecutionContext();
    const ships = shipper();
    // A busy spell first: the wait grows to its longest.
    await busySpell(ships, store, lifetime, "spell", 1_200);
    // The first quiet call still waits the long wait; it is a small batch, so the next waits less.
    const first = Date.now();
    ships.push(record("quiet"), store.env, lifetime);
    await waitOnExecutionContext(lifetime);
    const firstWait = store.writes.at(-1)!.at - first;
    const second = Date.now();
    ships.push(record("quiet"), store.env, lifetime);
    await waitOnExecutionContext(lifetime);
    const secondWait = store.writes.at(-1)!.at - second;
    expect(firstWait).toBeGreaterThanOrEqual(BUSY_FLUSH_DELAY_MS / 2);
    expect(secondWait).toBeGreaterThanOrEqual(FLUSH_DELAY_MS);
    expect(secondWait).toBeLessThan(BUSY_FLUSH_DELAY_MS / 2);
    expect(store.writes.slice(-2).map((write) => write.size)).toEqual([1, 1]);
    expect((await storedIds("quiet")).length).toBe(2);
  });

  it("write a full batch at once, and its pending wait writes nothing", async () => {
    const store = notedStore();
    const lifetime = createExecutionContext();
    const ships = shipper();
    for (let i = 0; i < 500; i++) ships.push(record("full"), store.env, lifetime);
    expect(store.writes.map((write) => write.size)).toEqual([500]);
    await waitOnExecutionContext(lifetime);
    expect(store.writes.map((write) => write.size)).toEqual([500]);
    expect((await storedIds("full")).length).toBe(500);
  });
});
