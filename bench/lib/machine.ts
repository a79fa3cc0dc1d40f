import { createRequire } from "node:module";
import { cpus, totalmem } from "node:os";

/** What the figures were measured on. */
export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  workerd: string;
  date: string;
}

/** Describes this machine and the runtime versions. */
export function describeMachine(): Machine {
  const require = createRequire(import.meta.url);
  const workerd = (require("workerd/package.json") as { version: string }).version;
  return {
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    workerd,
    date: new Date().toISOString().slice(0, 10),
  };
}
