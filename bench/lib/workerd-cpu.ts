import { readdir, readFile } from "node:fs/promises";

const TICKS_PER_SECOND = 100; // Linux USER_HZ

/** One process of /proc: its parent, whether it is workerd, and its CPU ticks so far. */
interface Proc {
  parent: number;
  workerd: boolean;
  ticks: number;
}

async function readProc(pid: number): Promise<Proc | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8");
    return {
      parent: Number(fields[1]),
      workerd: cmdline.includes("workerd"),
      ticks: Number(fields[11]) + Number(fields[12]), // utime, stime
    };
  } catch {
    return null; // the process ended between readdir and read
  }
}

async function ourWorkerds(): Promise<Map<number, Proc>> {
  const procs = new Map<number, Proc>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const proc = await readProc(Number(entry));
    if (proc) procs.set(Number(entry), proc);
  }
  const ours = (pid: number): boolean => {
    for (let at = pid, hops = 0; at > 1 && hops < 64; hops++) {
      if (at === process.pid) return true;
      at = procs.get(at)?.parent ?? 0;
    }
    return false;
  };
  return new Map([...procs].filter(([pid, proc]) => proc.workerd && ours(pid)));
}

/**
 * The process ids of the workerd processes this benchmark started
 * (descendants of this Node process), so a caller can tell the ones it just
 * started from the ones running before.
 *
 * @example
 * ```ts
 * const before = await workerdPids();
 * await miniflare.ready;
 * const started = (await workerdPids()).filter((pid) => !before.includes(pid));
 * ```
 */
export async function workerdPids(): Promise<number[]> {
  return [...(await ourWorkerds()).keys()];
}

/**
 * CPU time (ms) used so far by the workerd processes this benchmark started
 * (descendants of this Node process), read as {@link processCpuMs} reads it.
 * Sampled before and after a run, the difference divided by the requests
 * served is CPU per request, whatever the wall clock did. Other workerd
 * processes on a shared machine (someone else's tests) are not counted.
 */
export async function workerdCpuMs(): Promise<number> {
  return processCpuMs(await workerdPids());
}

/** On-CPU nanoseconds of one process so far, summed over its threads; `null` where /proc has no schedstat. */
async function schedNs(pid: number): Promise<number | null> {
  try {
    let ns = 0;
    for (const thread of await readdir(`/proc/${pid}/task`)) {
      const stat = await readFile(`/proc/${pid}/task/${thread}/schedstat`, "utf8");
      ns += Number(stat.split(" ")[0]);
    }
    return ns;
  } catch {
    return null;
  }
}

/**
 * CPU time (ms) used so far by the given processes, e.g. only the workerd
 * that serves the worker under test (not the log store's). Read from each
 * thread's scheduler statistics (nanoseconds) where /proc has them, so a
 * round of a few dozen milliseconds is measured as precisely as a long one;
 * else from utime + stime (10 ms ticks).
 *
 * @example
 * ```ts
 * const before = await processCpuMs([pid]);
 * ```
 */
export async function processCpuMs(pids: readonly number[]): Promise<number> {
  let ms = 0;
  for (const pid of pids) {
    const ns = await schedNs(pid);
    ms += ns === null ? (((await readProc(pid))?.ticks ?? 0) / TICKS_PER_SECOND) * 1000 : ns / 1e6;
  }
  return ms;
}
