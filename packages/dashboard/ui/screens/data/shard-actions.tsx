import { useState } from "preact/hooks";
import { useDataApi } from "../../api/use-data-api.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { useToast } from "../../components/toasts.tsx";
import { navigate } from "../../lib/navigation.tsx";
import { hrefOf } from "../../lib/routes.ts";

/**
 * The chosen shard's own actions: deleting every document of it, an admin
 * action the operator confirms by typing the shard key (the server checks
 * the key again and writes `shard.delete` to the audit trail). Once done the
 * studio goes back to the shard list (focus on its search), which
 * `onDeleted` reloads, since the shard has left the registry.
 */
export function ShardActions(props: { shard: string; onDeleted: () => void }) {
  const data = useDataApi();
  const notify = useToast();
  const [confirming, setConfirming] = useState(false);
  return (
    <div class="shard-actions">
      <p class="small">
        Shard <code class="mono">{props.shard}</code>
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
