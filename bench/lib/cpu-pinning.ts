import { execFile } from "node:child_process";
import { availableParallelism } from "node:os";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Sets the CPUs every thread of `pid` may run on (`taskset -a -p -c`). */
async function allow(pid: number, cpus: string): Promise<void> {
  await run("taskset", ["-a", "-p", "-c", cpus, String(pid)]);
}

/**
 * Gives the worker under test a core of its own: its workerd process runs on
 * CPU 0 only, and everything else this benchmark runs (this Node process with
 * the load generator and Miniflare's log reader, the log store's workerd) on
 * the other CPUs. Deployed, a worker's isolate has its thread to itself while
 * the caller, Workers Logs and other Durable Objects run elsewhere; on one
 * shared pair of cores, a console line read by Miniflare in Node or a store
 * insert would otherwise take the worker's turn and count as the worker's
 * cost. Answers how to undo it (this process back on every CPU), or `null`
 * when the machine has one CPU or no `taskset` (nothing pinned).
 *
 * @example
 * ```ts
 * const unpin = await pinWorker([workerdPid], [storePid]);
 * // ... measure ...
 * await unpin?.();
 * ```
 */
export async function pinWorker(
  worker: readonly number[],
  rest: readonly number[],
): Promise<(() => Promise<void>) | null> {
  const cpus = availableParallelism();
  if (cpus < 2 || worker.length === 0) return null;
  const others = cpus === 2 ? "1" : `1-${cpus - 1}`;
  try {
    for (const pid of worker) await allow(pid, "0");
    for (const pid of [...rest, process.pid]) await allow(pid, others);
  } catch {
    return null; // no taskset: the processes share every CPU, as before
  }
  return () => allow(process.pid, `0-${cpus - 1}`);
}
