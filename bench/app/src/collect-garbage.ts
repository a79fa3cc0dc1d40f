/**
 * `POST /bench/gc`: a full garbage collection of the bench worker's isolate
 * (its Durable Objects share it), through V8's `gc()`, which workerd exposes
 * only when started with `--expose-gc` (bench/lib/bench-app.ts sets it).
 * {@link compare} collects before and after each measured window, so every
 * target pays for collecting its own garbage, not for a collection that the
 * target before it left due (bench/lib/load.ts). `501` when `gc` is absent.
 *
 * @example
 * ```ts
 * if (pathname === "/bench/gc") return collectGarbage();
 * ```
 */
export function collectGarbage(): Response {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) {
    return Response.json(
      { code: "NOT_IMPLEMENTED", detail: "workerd was not started with --expose-gc." },
      { status: 501 },
    );
  }
  gc();
  return new Response(null, { status: 204 });
}
