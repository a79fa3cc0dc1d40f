import { useEffect, useState } from "preact/hooks";
import type { FilesApi, FileView } from "../../api/files.ts";

/** Largest image the list previews inline: a thumbnail must not pull megabytes per row. */
export const PREVIEW_MAX_BYTES = 2_000_000;

/** Raster images only: SVG is user-supplied markup and is never rendered in the dashboard. */
const PREVIEWABLE = /^image\/(png|jpeg|gif|webp|avif)$/;

/**
 * Whether the list shows a thumbnail of `file`: a stored raster image no
 * larger than {@link PREVIEW_MAX_BYTES}.
 *
 * @example canPreview({ state: "ready", contentType: "image/png", size: 2_048, ... }) // true
 */
export function canPreview(file: FileView): boolean {
  return (
    file.state === "ready" &&
    PREVIEWABLE.test(file.contentType ?? "") &&
    file.size !== null &&
    file.size <= PREVIEW_MAX_BYTES
  );
}

/** A blob as a `data:` URL: the dashboard's CSP allows `data:` images (not `blob:`). */
function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/**
 * A thumbnail of an image file. The download needs the admin token in a
 * header, so the bytes are fetched here and shown as a `data:` URL.
 */
export function FilePreview(props: { api: FilesApi; shard: string; file: FileView }) {
  const { api, shard, file } = props;
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    api
      .download(shard, file.storageId, controller.signal)
      .then((response) => response.blob())
      .then(dataUrlOf)
      .then((made) => {
        if (!controller.signal.aborted) setUrl(made);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => controller.abort();
  }, [api, shard, file.storageId]);
  if (failed) return <span class="muted">No preview</span>;
  if (url === null) return <span class="file-thumb file-thumb-loading" aria-hidden="true" />;
  return <img class="file-thumb" src={url} alt={`Preview of ${file.storageId}`} />;
}
