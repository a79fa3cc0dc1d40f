/** The most awaits one request may make: a few seconds of work at most. */
const MAX_WAITS = 10_000;

/** A 0 ms timer's callback: resolves the promise the loop awaits. */
function wake(resolve: () => void): void {
  resolve();
}

/**
 * `GET /bench/timer-wakes?kind=timer|promise&count=`: awaits `count` 0 ms
 * timers one after another (`timer`), or as many promises already resolved
 * (`promise`, the baseline), inside this one request. The gates scenario
 * reads the worker's CPU around each: the difference per await is what a
 * timer that wakes a request costs workerd, which a rate-limited call
 * waiting for its batch's answer pays once per look.
 *
 * @example
 * ```ts
 * await fetch(`${app.url}/bench/timer-wakes?kind=timer&count=2000`);
 * ```
 */
export async function timerWakes(url: URL): Promise<Response> {
  const kind = url.searchParams.get("kind");
  const count = Number(url.searchParams.get("count"));
  if ((kind !== "timer" && kind !== "promise") || !Number.isSafeInteger(count)) {
    return new Response("kind (timer or promise) and count are required", { status: 400 });
  }
  if (count < 1 || count > MAX_WAITS) {
    return new Response(`count must be 1 to ${MAX_WAITS}`, { status: 400 });
  }
  for (let i = 0; i < count; i++) {
    if (kind === "timer") await new Promise<void>((resolve) => setTimeout(wake, 0, resolve));
    else await Promise.resolve();
  }
  return Response.json({ kind, count });
}
