import type { FilesApi, FileView } from "../../api/files.ts";
import { RowsTable } from "../../components/rows-table.tsx";
import { Time } from "../../components/time.tsx";
import { formatBytes } from "../../lib/format.ts";
import { Link } from "../../lib/navigation.tsx";
import { DEFAULT_BROWSE, hrefOf } from "../../lib/routes.ts";
import { canPreview, FilePreview } from "./file-preview.tsx";

/** The Data page's view of one document: its table, filtered to its `_id`. */
function documentHref(shard: string, table: string, id: string): string {
  return hrefOf({
    page: "data",
    shard,
    table,
    browse: { ...DEFAULT_BROWSE, filter: JSON.stringify({ _id: id }) },
  });
}

/**
 * A shard's files: a thumbnail for images, the id and state, type, size,
 * the documents that own it (links into the Data page), when it was stored,
 * and Download / Delete buttons. On a phone the rows become stacked,
 * labelled cards.
 */
export function FileTable(props: {
  api: FilesApi;
  shard: string;
  files: FileView[];
  onDownload: (file: FileView) => void;
  onDelete: (file: FileView) => void;
}) {
  const { api, shard } = props;
  return (
    <RowsTable columns={["Preview", "File", "Type", "Size", "Owner", "Stored"]} actions>
      {props.files.map((file) => (
        <tr key={file.storageId} data-file-id={file.storageId}>
          <td data-label="Preview">
            {canPreview(file) ? (
              <FilePreview api={api} shard={shard} file={file} />
            ) : (
              <span class="muted">—</span>
            )}
          </td>
          <td data-label="File" class="cell-wrap">
            <code>{file.storageId}</code>
            {file.state === "ready" ? null : (
              <span class="badge badge-warn file-state">{file.state}</span>
            )}
          </td>
          <td data-label="Type" class="cell-wrap">
            {file.contentType ?? <span class="muted">—</span>}
          </td>
          <td data-label="Size">
            {file.size === null ? <span class="muted">—</span> : formatBytes(file.size)}
          </td>
          <td data-label="Owner" class="cell-wrap">
            {file.references.length === 0 ? (
              <span class="muted">None</span>
            ) : (
              file.references.map((owner) => (
                <div key={`${owner.table}/${owner.id}`}>
                  <Link href={documentHref(shard, owner.table, owner.id)}>
                    {owner.table} <code>{owner.id}</code>
                  </Link>
                </div>
              ))
            )}
          </td>
          <td data-label="Stored">
            <Time iso={file.createdAt} />
          </td>
          <td class="cell-actions">
            {file.state === "ready" ? (
              <button
                type="button"
                class="btn btn-small"
                aria-label={`Download ${file.storageId}`}
                onClick={() => props.onDownload(file)}
              >
                Download
              </button>
            ) : null}
            <button
              type="button"
              class="btn btn-small btn-danger"
              aria-label={`Delete ${file.storageId}`}
              onClick={() => props.onDelete(file)}
            >
              Delete
            </button>
          </td>
        </tr>
      ))}
    </RowsTable>
  );
}
