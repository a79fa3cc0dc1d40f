import { EXPORT_STALL_MS, exportLease } from "./export-lease.ts";

/**
 * One export stream made of two: `first`, then the stream `next()` opens
 * once `first` has ended (the documents, then the files of storage/backup-lines.ts).
 * `release` is called exactly once: at the end, on cancel, on error, or when
 * the reader asks for nothing for {@link EXPORT_STALL_MS} (writes wait while
 * an export runs, so a stalled reader must not hold them).
 *
 * @example followedBy(exportStream(sql, header, () => {}), () => fileLines(sql, null, files), release)
 */
export function followedBy(
  first: ReadableStream<Uint8Array>,
  next: () => ReadableStream<Uint8Array>,
  release: () => void,
): ReadableStream<Uint8Array> {
  let reader = first.getReader();
  let onSecond = false;
  const lease = exportLease(release);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        lease.disarm();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (!done) {
              controller.enqueue(value);
              lease.arm(controller, () => void reader.cancel().catch(() => {}));
              return;
            }
            if (onSecond) {
              controller.close();
              lease.end();
              return;
            }
            onSecond = true;
            reader = next().getReader();
          }
        } catch (error) {
          lease.end();
          throw error;
        }
      },
      async cancel(reason) {
        lease.end();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 1 },
  );
}
