import type { ArgsOf, PublicRef, UploadFileOptions } from "@svc/client";
import type { Id } from "@svc/server";
import { useCallback, useEffect, useRef, useState } from "react";
import { useSvcClient } from "./context.ts";

/** Where an upload of {@link useUploadFile} stands. */
export type UploadStatus = "idle" | "uploading" | "done" | "failed" | "cancelled";

/** What {@link useUploadFile} answers. */
export interface UploadFileState {
  /**
   * Issues an upload URL (the hook's mutation, with `args`) and uploads
   * `file` to it; resolves with the file's storage id, or rejects (an
   * `SvcClientError`, or an `AbortError` after {@link UploadFileState.cancel}).
   */
  upload(file: Blob, args?: Record<string, unknown>): Promise<Id<"_storage">>;
  status: UploadStatus;
  /** Fraction of the file sent (0–1) while uploading and after; `null` before the first upload. */
  progress: number | null;
  /** The failure of the last upload, or `null`. */
  error: Error | null;
  /** Cancels the upload under way (nothing is stored). */
  cancel(): void;
}

/** Options of {@link useUploadFile}. */
export interface UseUploadFileOptions {
  /** The shard the URL's mutation runs in (and the file lands in). Default: the client's. */
  shardKey?: string;
  /** The file's type, when the `Blob`'s own is not the one to store. */
  contentType?: UploadFileOptions["contentType"];
}

/**
 * Uploads files through a mutation that answers `ctx.storage.generateUploadUrl()`:
 * progress as the bytes go out, cancel, and the storage id to save in a
 * document. Unmounting cancels an upload under way.
 *
 * @example
 * ```tsx
 * const { upload, progress, status, cancel } = useUploadFile(api.files.uploadUrl);
 * const onChange = async (file: File) => save({ file: await upload(file), name: file.name });
 * return status === "uploading" ? <progress value={progress ?? 0} onClick={cancel} /> : null;
 * ```
 */
export function useUploadFile<Ref extends PublicRef<"mutation">>(
  uploadUrl: Ref,
  options: UseUploadFileOptions = {},
): UploadFileState {
  const client = useSvcClient();
  const [status, setStatus] = useState<UploadStatus>("idle");
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const controller = useRef<AbortController | null>(null);
  const { shardKey, contentType } = options;
  useEffect(() => () => controller.current?.abort(), []);
  const upload = useCallback(
    async (file: Blob, args: Record<string, unknown> = {}) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      setStatus("uploading");
      setProgress(0);
      setError(null);
      try {
        const url = (await client.mutation(uploadUrl, args as ArgsOf<Ref>, {
          ...(shardKey === undefined ? {} : { shardKey }),
          signal: current.signal,
        })) as unknown;
        if (typeof url !== "string")
          throw new TypeError("The upload URL mutation answered no URL.");
        const storageId = await client.uploadFile(url, file, {
          signal: current.signal,
          ...(contentType === undefined ? {} : { contentType }),
          onProgress: ({ loaded, total }) => {
            if (controller.current === current) setProgress(total === 0 ? 1 : loaded / total);
          },
        });
        if (controller.current === current) setStatus("done");
        return storageId;
      } catch (thrown) {
        if (controller.current === current) {
          const cancelled = current.signal.aborted;
          setStatus(cancelled ? "cancelled" : "failed");
          setError(thrown instanceof Error ? thrown : new Error(String(thrown)));
        }
        throw thrown;
      }
    },
    [client, uploadUrl, shardKey, contentType],
  );
  const cancel = useCallback(() => controller.current?.abort(), []);
  return { upload, status, progress, error, cancel };
}
