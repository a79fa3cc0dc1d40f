import { useEffect, useRef, useState } from "preact/hooks";
import { uploadPath } from "../../api/files.ts";
import { ProgressMeter } from "../../components/progress-meter.tsx";
import { ErrorNotice } from "../../components/states.tsx";
import { formatBytes } from "../../lib/format.ts";
import { readToken } from "../../lib/token-store.ts";
import { type UploadProgress, uploadWithProgress } from "../../lib/upload-with-progress.ts";

/**
 * Stores a file the operator picks as a new file of the shard, with a
 * progress bar while the bytes go out and a Cancel button; `onUploaded`
 * gets the new storage id. Unreferenced, the file is collected like any
 * upload (docs/storage.md), which the hint says.
 */
export function UploadForm(props: { shard: string; onUploaded: (storageId: string) => void }) {
  const { shard, onUploaded } = props;
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const controller = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const upload = async (event: Event) => {
    event.preventDefault();
    const token = readToken();
    if (file === null || token === null || controller.current !== null) return;
    const current = new AbortController();
    controller.current = current;
    setError(null);
    setProgress({ loaded: 0, total: file.size });
    try {
      const answer = (await uploadWithProgress(uploadPath(shard), file, token, {
        signal: current.signal,
        onProgress: setProgress,
      })) as { storageId: string };
      setFile(null);
      if (input.current) input.current.value = "";
      onUploaded(answer.storageId);
    } catch (thrown) {
      if (!current.signal.aborted)
        setError(thrown instanceof Error ? thrown : new Error(String(thrown)));
    } finally {
      controller.current = null;
      setProgress(null);
    }
  };

  return (
    <form class="file-upload" onSubmit={upload}>
      <label class="field">
        <span class="field-label">File to upload</span>
        <input
          ref={input}
          class="input"
          type="file"
          name="file"
          disabled={progress !== null}
          onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
        />
      </label>
      {progress === null ? (
        <button type="submit" class="btn btn-primary" disabled={file === null}>
          Upload
        </button>
      ) : (
        <>
          <ProgressMeter
            label={`Uploading ${file?.name ?? "the file"}`}
            value={progress.loaded}
            max={progress.total}
            text={`${formatBytes(progress.loaded)} of ${formatBytes(progress.total)} sent`}
          />
          <button type="button" class="btn" onClick={() => controller.current?.abort()}>
            Cancel upload
          </button>
        </>
      )}
      {error === null ? null : <ErrorNotice error={error} compact />}
    </form>
  );
}
