import type { Backup } from "../../api/data-admin.ts";
import { NameText } from "../../components/name-text.tsx";
import { RowsTable } from "../../components/rows-table.tsx";
import { Time } from "../../components/time.tsx";
import { formatBytes } from "../../lib/format.ts";

/**
 * Backups in the bucket, by shard then oldest first: when each was taken,
 * its size and documents, and its Download and Restore buttons. On a phone
 * the rows become stacked, labelled cards.
 *
 * @example <BackupList backups={items} onDownload={download} onRestore={setRestoring} />
 */
export function BackupList(props: {
  backups: Backup[];
  onDownload: (backup: Backup) => void;
  onRestore: (backup: Backup) => void;
}) {
  return (
    <RowsTable caption="Backups" columns={["Shard", "Taken", "Documents", "Size"]} actions>
      {props.backups.map((backup) => (
        <tr key={backup.id} data-backup-id={backup.id}>
          <td data-label="Shard" class="cell-wrap">
            <code>
              <NameText text={backup.shardKey} />
            </code>
          </td>
          <td data-label="Taken">
            <Time iso={backup.createdAt} absolute />
          </td>
          <td data-label="Documents">{backup.documents.toLocaleString("en")}</td>
          <td data-label="Size">{formatBytes(backup.sizeBytes)}</td>
          <td data-label="Actions" class="cell-actions">
            <button
              type="button"
              class="btn btn-small"
              aria-label={`Download backup of ${backup.shardKey} taken ${backup.createdAt}`}
              onClick={() => props.onDownload(backup)}
            >
              Download
            </button>
            <button
              type="button"
              class="btn btn-small"
              aria-label={`Restore backup of ${backup.shardKey} taken ${backup.createdAt}`}
              onClick={() => props.onRestore(backup)}
            >
              Restore…
            </button>
          </td>
        </tr>
      ))}
    </RowsTable>
  );
}
