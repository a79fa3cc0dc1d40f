import type { CpuProfile } from "./cpu-profile.ts";
import type { HeapProfile } from "./heap-profile.ts";

/** One Chrome DevTools protocol session over a WebSocket: send a command, await its answer. */
async function connect(url: string): Promise<{
  send(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): void;
}> {
  // Miniflare's inspector proxy accepts local tools: a localhost Origin.
  const socket = new WebSocket(url, {
    headers: { origin: "http://localhost" },
  } as unknown as string[]);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve(), { once: true });
    socket.addEventListener("error", () => reject(new Error(`no inspector at ${url}`)), {
      once: true,
    });
  });
  let nextId = 1;
  const waiting = new Map<number, (answer: { result?: unknown; error?: unknown }) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message);
  });
  return {
    send(method, params = {}) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, (answer) => {
          waiting.delete(id);
          if (answer.error) reject(new Error(`${method}: ${JSON.stringify(answer.error)}`));
          else resolve(answer.result as Record<string, unknown>);
        });
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    close: () => socket.close(),
  };
}

/** A CPU profiler attached to one isolate: one inspector session, reused for every recording. */
export interface IsolateProfiler {
  /** Profiles the isolate while `during` runs and answers the profile. */
  record(during: () => Promise<void>): Promise<CpuProfile>;
  /**
   * Samples the isolate's allocations while `during` runs (one sample per
   * `HEAP_SAMPLING_BYTES` allocated, on average), objects collected meanwhile
   * included, and answers the profile.
   */
  sampleHeap(during: () => Promise<void>): Promise<HeapProfile>;
  close(): void;
}

/**
 * Mean bytes between two allocation samples: a REST read allocates about
 * 10 KB, so about 20 samples a request; finer sampling makes V8's answer
 * (every sample listed) tens of megabytes for a few seconds of load.
 */
const HEAP_SAMPLING_BYTES = 512;

/**
 * Attaches V8's CPU profiler to a workerd isolate through its inspector, for
 * profiles of the worker under the load a caller drives: where the worker's
 * CPU goes, by function. One session serves every recording (workerd's
 * inspector took a second session after the first closed only sometimes).
 * Sampled every `samplingIntervalUs` microseconds (V8's default is 1,000; a
 * request of half a millisecond needs finer samples to be seen at all).
 *
 * @example
 * ```ts
 * const profiler = await attachProfiler(app.inspectorUrl);
 * const profile = await profiler.record(() => drive(target, plan, 5));
 * profiler.close();
 * ```
 */
export async function attachProfiler(
  url: string,
  samplingIntervalUs = 100,
): Promise<IsolateProfiler> {
  const session = await connect(url);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: samplingIntervalUs });
  await session.send("HeapProfiler.enable");
  /**
   * Starts a profiler, runs `during`, and stops it either way (a failed load
   * leaves no profiler running): the stop's `profile`, or `during`'s error.
   */
  const profileWhile = async <P>(
    start: () => Promise<unknown>,
    stop: string,
    during: () => Promise<void>,
  ): Promise<P> => {
    await start();
    const failed = await during().then(
      () => null,
      (error: unknown) => ({ error }),
    );
    const { profile } = (await session.send(stop)) as { profile: P };
    if (failed) throw failed.error;
    return profile;
  };
  return {
    record: (during) =>
      profileWhile<CpuProfile>(() => session.send("Profiler.start"), "Profiler.stop", during),
    sampleHeap: (during) =>
      profileWhile<HeapProfile>(
        // Collected objects too: a request's allocations are nearly all garbage by the window's end.
        () =>
          session.send("HeapProfiler.startSampling", {
            samplingInterval: HEAP_SAMPLING_BYTES,
            includeObjectsCollectedByMinorGC: true,
            includeObjectsCollectedByMajorGC: true,
          }),
        "HeapProfiler.stopSampling",
        during,
      ),
    close: () => session.close(),
  };
}
