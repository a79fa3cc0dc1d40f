import { useState } from "preact/hooks";
import { type Backup, useDataAdminApi } from "../../api/data-admin.ts";
import { Dialog } from "../../components/dialog.tsx";
import { Field, FormActions } from "../../components/form-parts.tsx";
import { NameText } from "../../components/name-text.tsx";
import { useSubmit } from "../../lib/use-submit.ts";

/**
 * Restores a backup into a shard, which must be empty (the server refuses
 * one holding documents with a 409, shown here): into its own shard after a
 * delete, or under a new key (a clone). The operator types the target key
 * again before the button is enabled; the server audits `shard.restore`.
 *
 * @example <RestoreDialog backup={backup} onClose={close} onRestored={(key, n) => toast(key, n)} />
 */
export function RestoreDialog(props: {
  backup: Backup;
  onClose: () => void;
  onRestored: (key: string, documents: number) => void;
}) {
  const api = useDataAdminApi();
  const [target, setTarget] = useState(`${props.backup.shardKey}-restored`);
  const [typed, setTyped] = useState("");
  const key = target.trim();
  const ready = key !== "" && typed.trim() === key;
  const { busy, error, submit } = useSubmit(async () => {
    if (!ready) return;
    const result = await api.restoreShard({
      params: { key },
      body: { backup: props.backup.id },
    });
    props.onRestored(result.key, result.documents);
  });
  return (
    <Dialog title="Restore a backup" onClose={props.onClose}>
      <form class="stack" onSubmit={submit}>
        <p class="confirm-text">
          The backup of{" "}
          <code>
            <NameText text={props.backup.shardKey} />
          </code>{" "}
          taken {props.backup.createdAt} ({props.backup.documents} documents) goes into the shard
          named below, which must be empty: its own key after its data was deleted, or a new key for
          a copy.
        </p>
        <Field label="Restore into shard">
          {(control) => (
            <input
              {...control}
              class="input"
              value={target}
              onInput={(event) => setTarget(event.currentTarget.value)}
              autocomplete="off"
              spellcheck={false}
              autofocus
            />
          )}
        </Field>
        <Field
          label={
            <>
              Type{" "}
              <strong>
                <NameText text={key} />
              </strong>{" "}
              to confirm
            </>
          }
        >
          {(control) => (
            <input
              {...control}
              class="input"
              value={typed}
              onInput={(event) => setTyped(event.currentTarget.value)}
              autocomplete="off"
              spellcheck={false}
            />
          )}
        </Field>
        <FormActions
          error={error}
          busy={busy}
          onCancel={props.onClose}
          label="Restore backup"
          busyLabel="Restoring…"
          tone="danger"
          disabled={!ready}
        />
      </form>
    </Dialog>
  );
}
