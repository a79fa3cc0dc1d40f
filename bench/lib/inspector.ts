import type { CpuProfile } from "./cpu-profile.ts";

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

/**
 * Records a V8 CPU profile of a workerd isolate through its inspector while
 * `during` runs, and answers the profile: where the worker's CPU goes, by
 * function, under the load `during` drives. Sampled every
 * `samplingIntervalUs` microseconds (V8's default is 1,000; a request of
 * half a millisecond needs finer samples to be seen at all).
 *
 * @example
 * ```ts
 * const profile = await recordCpuProfile(app.inspectorUrl, () => drive(target, 5));
 * ```
 */
export async function recordCpuProfile(
  url: string,
  during: () => Promise<void>,
  samplingIntervalUs = 100,
): Promise<CpuProfile> {
  const session = await connect(url);
  try {
    await session.send("Profiler.enable");
    await session.send("Profiler.setSamplingInterval", { interval: samplingIntervalUs });
    await session.send("Profiler.start");
    await during();
    const { profile } = (await session.send("Profiler.stop")) as { profile: CpuProfile };
    await session.send("Profiler.disable");
    return profile;
  } finally {
    session.close();
  }
}
