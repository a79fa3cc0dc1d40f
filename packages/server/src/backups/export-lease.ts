/**
 * An export whose reader asks for nothing for this long is ended (writes to
 * the shard wait while it runs, so a stalled reader must not hold them).
 */
export const EXPORT_STALL_MS = 60_000;

/** How an export stream holds the shard's write lock: see {@link exportLease}. */
export interface ExportLease {
  /** Gives the lock back; only the first call releases, later ones do nothing. */
  end(): void;
  /** After a chunk: if the reader asks for nothing for {@link EXPORT_STALL_MS}, error the stream, run `onStall`, end. */
  arm(controller: ReadableStreamDefaultController<Uint8Array>, onStall?: () => void): void;
  /** The reader asked again: the stall timer stops. */
  disarm(): void;
}

/**
 * The write lock an export stream holds, released exactly once — at the end,
 * on cancel, on error, or when the reader stalls. Every export stream
 * (documents, and documents followed by files) keeps the same promise through
 * this one piece.
 *
 * @example
 * ```ts
 * const lease = exportLease(release);
 * // pull: lease.disarm(); enqueue a chunk; lease.arm(controller);  done: lease.end()
 * ```
 */
export function exportLease(release: () => void): ExportLease {
  let released = false;
  let stall: ReturnType<typeof setTimeout> | undefined;
  const disarm = () => {
    if (stall !== undefined) clearTimeout(stall);
  };
  const end = () => {
    disarm();
    if (released) return;
    released = true;
    release();
  };
  return {
    end,
    disarm,
    arm(controller, onStall) {
      stall = setTimeout(() => {
        controller.error(new Error("svc: the export reader stalled; the export was ended"));
        onStall?.();
        end();
      }, EXPORT_STALL_MS);
    },
  };
}
