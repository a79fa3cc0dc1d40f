import { useMemo, useState } from "preact/hooks";
import { type FileView, filesApi } from "../../api/files.ts";
import { useApp } from "../../app-context.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { DelayedFilter } from "../../components/delayed-filter.tsx";
import { LoadMore } from "../../components/load-more.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { useToast } from "../../components/toasts.tsx";
import { saveFile } from "../../lib/export-download.ts";
import { navigate } from "../../lib/navigation.tsx";
import { hrefOf } from "../../lib/routes.ts";
import { usePagedList } from "../../lib/use-paged-list.ts";
import { FileTable } from "./file-table.tsx";
import { UploadForm } from "./upload-form.tsx";

const PAGE_SIZE = 50;

/**
 * The Files page: one shard's stored files (ctx.storage, docs/storage.md)
 * with their size, type and owner documents, image previews, download,
 * upload with progress, and delete after a confirmation.
 */
export function FilesPage(props: { shard: string }) {
  const { shard } = props;
  return (
    <div class="page">
      <PageHeader
        title="Files"
        subtitle="Files stored with ctx.storage in one shard, oldest first, with the documents that own them."
      />
      <search class="filters">
        <DelayedFilter
          label="Shard"
          value={shard}
          placeholder="room-1"
          onChange={(key) =>
            navigate(hrefOf({ page: "files", shard: key }), {
              replace: true,
            })
          }
        />
      </search>
      {shard === "" ? (
        <Empty title="Pick a shard">Type a shard key to see the files stored in it.</Empty>
      ) : (
        <FileResults key={shard} shard={shard} />
      )}
    </div>
  );
}

function FileResults(props: { shard: string }) {
  const { shard } = props;
  const { transport } = useApp();
  const notify = useToast();
  const api = useMemo(() => filesApi(transport), [transport]);
  const [version, setVersion] = useState(0);
  const [confirm, setConfirm] = useState<FileView | null>(null);
  const list = usePagedList(
    async (cursor, signal) => {
      const page = await api.list(shard, cursor ?? null, PAGE_SIZE, signal);
      return { items: page.files, nextCursor: page.cursor };
    },
    [api, version],
  );
  const download = async (file: FileView) => {
    try {
      const response = await api.download(shard, file.storageId);
      saveFile(await response.blob(), file.storageId);
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), "error");
    }
  };
  const remove = async () => {
    if (confirm === null) return;
    await api.remove(shard, confirm.storageId);
    notify(`File ${confirm.storageId} deleted.`);
    setVersion((n) => n + 1);
  };
  return (
    <>
      <UploadForm
        shard={shard}
        onUploaded={(storageId) => {
          notify(`File ${storageId} uploaded.`);
          setVersion((n) => n + 1);
        }}
      />
      <LoadView loaded={list.first} label="Loading the files…">
        {() =>
          list.items.length === 0 ? (
            <Empty title="No files">
              Files stored in this shard appear here: uploads through ctx.storage or the form above.
            </Empty>
          ) : (
            <div class="card card-flush">
              <FileTable
                api={api}
                shard={shard}
                files={list.items}
                onDownload={(file) => void download(file)}
                onDelete={setConfirm}
              />
              <LoadMore list={list} label="Load more files" />
            </div>
          )
        }
      </LoadView>
      {confirm === null ? null : (
        <ConfirmDialog
          title="Delete this file"
          confirmLabel="Delete file"
          danger
          onConfirm={remove}
          onClose={() => setConfirm(null)}
        >
          <p>
            File <code>{confirm.storageId}</code> and its bytes will be deleted.
            {confirm.references.length > 0
              ? ` ${confirm.references.length} document${confirm.references.length === 1 ? " still references" : "s still reference"} it and will point to a missing file.`
              : ""}
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
