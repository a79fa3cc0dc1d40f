import { EXPORT_STALL_MS } from "./export.ts";

/**
 * One export stream made of two: `first`, then the stream `next()` opens
 * once `first` has ended (the documents, then the files of storage/backup-lines.ts).
 * `release` is called exactly once: at the end, on cancel, on error, or when
 * the reader asks for nothing for {@link EXPORT_STALL_MS} (writes wait while
 * an export runs, so a stalled reader must not hold them).
 *
 * @example followedBy(exportStream(sql, header, () => {}), () => fileLines(sql, null, key), release)
 */
export function followedBy(
  first: ReadableStream<Uint8Array>,
  next: () => ReadableStream<Uint8Array>,
  release: () => void,
): ReadableStream<Uint8Array> {
  let reader = first.getReader();
  let onSecond = false;
  let released = false;
  let stall: ReturnType<typeof setTimeout> | undefined;
  const finish = () => {
    if (stall !== undefined) clearTimeout(stall);
    if (released) return;
    released = true;
    release();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (stall !== undefined) clearTimeout(stall);
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (!done) {
              controller.enqueue(value);
              stall = setTimeout(() => {
                controller.error(new Error("svc: the export reader stalled; the export was ended"));
                void reader.cancel().catch(() => {});
                finish();
              }, EXPORT_STALL_MS);
              return;
            }
            if (onSecond) {
              controller.close();
              finish();
              return;
            }
            onSecond = true;
            reader = next().getReader();
          }
        } catch (error) {
          finish();
          throw error;
        }
      },
      async cancel(reason) {
        finish();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 1 },
  );
}
