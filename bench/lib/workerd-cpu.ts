import { readdir, readFile } from "node:fs/promises";

const TICKS_PER_SECOND = 100; // Linux USER_HZ

/**
 * CPU time (user + system, ms) used so far by every workerd process on the
 * machine, from /proc. Sampled before and after a run, the difference divided
 * by the requests served is CPU per request, whatever the wall clock did.
 */
export async function workerdCpuMs(): Promise<number> {
  let ticks = 0;
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.includes("workerd")) continue;
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // the process ended between readdir and read
    }
  }
  return (ticks / TICKS_PER_SECOND) * 1000;
}
