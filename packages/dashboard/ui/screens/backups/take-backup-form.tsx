import { useState } from "preact/hooks";
import { useDataAdminApi } from "../../api/data-admin.ts";
import { ErrorNotice } from "../../components/states.tsx";
import { useSubmit } from "../../lib/use-submit.ts";

/**
 * "Back up now": one shard, by key, to the bucket (the shard's writes wait
 * while it is read, so the backup is one consistent snapshot); the server
 * audits `shard.backup` and prunes the shard's backups beyond `keep`.
 *
 * @example <TakeBackupForm onTaken={(key) => reload()} />
 */
export function TakeBackupForm(props: { onTaken: (key: string, documents: number) => void }) {
  const api = useDataAdminApi();
  const [key, setKey] = useState("");
  const { busy, error, submit } = useSubmit(async () => {
    const shard = key.trim();
    if (shard === "") return;
    const backup = await api.backupShard({ params: { key: shard } });
    props.onTaken(shard, backup.documents);
  });
  return (
    <form class="filters" onSubmit={submit}>
      <label class="field field-grow">
        <span class="field-label">Shard to back up now</span>
        <input
          class="input"
          name="shard"
          value={key}
          onInput={(event) => setKey(event.currentTarget.value)}
          autocomplete="off"
          spellcheck={false}
          placeholder="room-1"
        />
      </label>
      <button type="submit" class="btn btn-primary" disabled={busy || key.trim() === ""}>
        {busy ? "Backing up…" : "Back up now"}
      </button>
      {error ? <ErrorNotice error={error} compact /> : null}
    </form>
  );
}
