/** Reports how far a long task got. */
export interface Progress {
  /** The amount done so far (documents or bytes). */
  update(done: number): void;
  /** Prints the final line. */
  finish(summary: string): void;
}

const TTY_INTERVAL_MS = 100;
const LOG_INTERVAL_MS = 2_000;

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Progress on stderr for a long admin task (a backup, a restore): on a
 * terminal one line rewritten at most ten times a second, elsewhere (CI,
 * pipes) a line every two seconds; with the percentage once the total is
 * known.
 *
 * @example
 * ```ts
 * const progress = createProgress("backup room-1", "documents");
 * progress.total = 5000;
 * progress.update(1200); // backup room-1: 1,200 / 5,000 documents (24%)
 * ```
 */
export function createProgress(
  label: string,
  unit: "documents" | "bytes",
  stream: NodeJS.WriteStream = process.stderr,
): Progress & { total: number | undefined } {
  let last = 0;
  const started = Date.now();
  const tty = stream.isTTY === true;
  const amount = (n: number) => (unit === "bytes" ? formatBytes(n) : n.toLocaleString("en-US"));
  const state = {
    total: undefined as number | undefined,
    update(done: number) {
      const now = Date.now();
      if (now - last < (tty ? TTY_INTERVAL_MS : LOG_INTERVAL_MS)) return;
      last = now;
      const total = state.total;
      const of =
        total === undefined || total === 0
          ? ` ${unit === "bytes" ? "" : unit}`
          : ` / ${amount(total)}${unit === "bytes" ? "" : ` ${unit}`} (${Math.floor((done / total) * 100)}%)`;
      const line = `${label}: ${amount(done)}${of.trimEnd()}`;
      stream.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
    },
    finish(summary: string) {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      stream.write(`${tty ? "\r\x1b[2K" : ""}${label}: ${summary} in ${seconds} s\n`);
    },
  };
  return state;
}
