import { useState } from "preact/hooks";
import { useDataApi } from "../../api/use-data-api.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Time } from "../../components/time.tsx";
import { useToast } from "../../components/toasts.tsx";
import { formatBytes } from "../../lib/format.ts";
import { navigate } from "../../lib/navigation.tsx";
import { hrefOf } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";

/**
 * The chosen shard's registry row: what it holds, how big it is, when it
 * was last written and which schema version it applied. Nothing while it
 * loads or when the registry has no row yet (a shard reports one interval
 * after it starts).
 */
function ShardSummary(props: { shard: string }) {
  const data = useDataApi();
  const row = useLoad((signal) => data.shard(props.shard, signal), [props.shard]);
  if (row.data === undefined) return null;
  const { documents, sizeBytes, lastWriteAt, schemaVersion } = row.data;
  return (
    <span class="muted">
      {" "}
      · {documents.toLocaleString("en")} {documents === 1 ? "document" : "documents"} ·{" "}
      {formatBytes(sizeBytes)} · last write <Time iso={lastWriteAt} empty="none seen" /> · schema{" "}
      {schemaVersion ?? "none recorded"}
    </span>
  );
}

/**
 * The chosen shard's registry row and its own actions: deleting every
 * document of it, an admin action the operator confirms by typing the shard
 * key (the server checks the key again and writes `shard.delete` to the
 * audit trail). Once done the studio goes back to the shard list (focus on
 * its search), which `onDeleted` reloads, since the shard has left the
 * registry.
 */
export function ShardActions(props: { shard: string; onDeleted: () => void }) {
  const data = useDataApi();
  const notify = useToast();
  const [confirming, setConfirming] = useState(false);
  return (
    <div class="shard-actions">
      <p class="small">
        Shard <code class="mono">{props.shard}</code>
        <ShardSummary shard={props.shard} />
      </p>
      <button
        type="button"
        class="btn btn-small btn-danger-ghost"
        onClick={() => setConfirming(true)}
      >
        Delete shard data…
      </button>
      {confirming ? (
        <ConfirmDialog
          title="Delete this shard's data"
          confirmLabel="Delete shard data"
          danger
          requireText={props.shard}
          onConfirm={async () => {
            const { documents } = await data.deleteShard(props.shard, props.shard);
            notify(
              `Shard ${props.shard} deleted: ${documents} ${documents === 1 ? "document" : "documents"}.`,
            );
            props.onDeleted();
            navigate(hrefOf({ page: "data", shard: null, table: null }));
          }}
          onClose={() => setConfirming(false)}
          focusAfter={() => document.querySelector<HTMLElement>(".data-aside input[type=search]")}
        >
          <p>
            Every document of every table of shard <code>{props.shard}</code> is deleted, its live
            queries see an empty shard, and it leaves the shard registry. This cannot be undone:
            back it up first (<code>svc backup {props.shard}</code>) if you may want it back. The
            audit trail records who deleted it.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
