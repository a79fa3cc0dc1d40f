import { useState } from "preact/hooks";
import { ApiError } from "../../api/client.ts";
import { type Backup, useDataAdminApi } from "../../api/data-admin.ts";
import { LoadMore } from "../../components/load-more.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { Section } from "../../components/section.tsx";
import { Empty, ErrorNotice, LoadView } from "../../components/states.tsx";
import { useToast } from "../../components/toasts.tsx";
import { saveFile } from "../../lib/export-download.ts";
import { useLoad } from "../../lib/use-load.ts";
import { usePagedList } from "../../lib/use-paged-list.ts";
import { BackupList } from "./backup-list.tsx";
import { BackupScheduleNote } from "./backup-schedule.tsx";
import { RestoreDialog } from "./restore-dialog.tsx";
import { TakeBackupForm } from "./take-backup-form.tsx";

/** The download's file name: the server's, else the shard key and time. */
function fileNameOf(response: Response, backup: Backup): string {
  const named = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "");
  return named?.[1] ?? `${backup.shardKey}-${backup.createdAt}.ndjson`;
}

/**
 * The shards' backups in the app's R2 bucket (`createWorker({ backups })`):
 * the schedule they are taken on, a backup of one shard taken now, and each
 * backup listed with Download and Restore (into an empty shard, the key
 * typed again). Without `backups` configured the page says how to set it up.
 *
 * @example <BackupsPage />
 */
export function BackupsPage() {
  const api = useDataAdminApi();
  const notify = useToast();
  const schedule = useLoad((signal) => api.backupSchedule({ signal }), [api]);
  const [shard, setShard] = useState("");
  const [typed, setTyped] = useState("");
  const [generation, setGeneration] = useState(0);
  const [restoring, setRestoring] = useState<Backup | null>(null);
  const [downloadError, setDownloadError] = useState<Error | null>(null);
  const backups = usePagedList(
    async (cursor, signal) => {
      const page = await api.listBackups({
        query: { ...(shard === "" ? {} : { shard }), ...(cursor ? { cursor } : {}) },
        signal,
      });
      return { items: page.backups, nextCursor: page.nextCursor };
    },
    [api, shard, generation],
  );
  const notConfigured = schedule.error instanceof ApiError && schedule.error.status === 404;

  const download = async (backup: Backup) => {
    setDownloadError(null);
    try {
      const response = await api.downloadBackup({
        params: { key: backup.shardKey },
        query: { id: backup.id },
      });
      saveFile(await response.blob(), fileNameOf(response, backup));
      notify(`Backup of ${backup.shardKey} downloaded.`);
    } catch (error) {
      setDownloadError(error instanceof Error ? error : new Error(String(error)));
    }
  };

  return (
    <div class="page">
      <PageHeader
        title="Backups"
        subtitle="Shard backups in the app's R2 bucket: taken on a schedule or now, downloaded, restored into an empty shard."
      />
      {notConfigured ? (
        <Empty title="Backups are not configured">
          Pass <code>backups: {"{ bucket, schedule }"}</code> to <code>createWorker</code> and bind
          the R2 bucket (docs/data-lifecycle.md, “Back up”).
        </Empty>
      ) : (
        <>
          <div class="stack">
            <LoadView loaded={schedule} label="Loading the schedule…">
              {(settings) => <BackupScheduleNote schedule={settings} />}
            </LoadView>
            <TakeBackupForm
              onTaken={(key, documents) => {
                notify(`Shard ${key} backed up: ${documents} documents.`);
                setGeneration((n) => n + 1);
              }}
            />
          </div>
          <Section title="Backups" count={backups.first.data ? backups.items.length : undefined}>
            <form
              class="filters"
              onSubmit={(event) => {
                event.preventDefault();
                setShard(typed.trim());
              }}
            >
              <label class="field field-grow">
                <span class="field-label">Shard</span>
                <input
                  class="input"
                  type="search"
                  value={typed}
                  onInput={(event) => setTyped(event.currentTarget.value)}
                  placeholder="every shard"
                  autocomplete="off"
                  spellcheck={false}
                />
              </label>
              <button type="submit" class="btn">
                Show
              </button>
            </form>
            {downloadError ? <ErrorNotice error={downloadError} compact /> : null}
            <LoadView loaded={backups.first} label="Listing backups…">
              {() =>
                backups.items.length === 0 ? (
                  <Empty title="No backups yet">
                    {shard === ""
                      ? "The schedule takes the first ones, or back a shard up now."
                      : `No backup of ${shard} in the bucket.`}
                  </Empty>
                ) : (
                  <>
                    <BackupList
                      backups={backups.items}
                      onDownload={(backup) => void download(backup)}
                      onRestore={setRestoring}
                    />
                    <LoadMore list={backups} />
                  </>
                )
              }
            </LoadView>
          </Section>
        </>
      )}
      {restoring !== null ? (
        <RestoreDialog
          backup={restoring}
          onClose={() => setRestoring(null)}
          onRestored={(key, documents) => {
            setRestoring(null);
            notify(`Restored ${documents} documents into shard ${key}.`);
          }}
        />
      ) : null}
    </div>
  );
}
