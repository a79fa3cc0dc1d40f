import { useRef, useState } from "preact/hooks";
import type { Passkey } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Section } from "../../components/section.tsx";
import { Empty } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { useToast } from "../../components/toasts.tsx";
import { OnlyMethodNote } from "./only-method-note.tsx";

/**
 * The user's passkeys (passkey plugin only), each revocable unless it is the
 * user's only way in (`onlyMethod`), which the server refuses to remove.
 */
export function UserPasskeys(props: {
  userId: string;
  passkeys: Passkey[];
  onlyMethod: boolean;
  onChanged: () => void;
}) {
  const { api } = useApp();
  const notify = useToast();
  const [revoking, setRevoking] = useState<Passkey | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const nameOf = (passkey: Passkey) => passkey.name ?? "Unnamed passkey";
  return (
    <Section title="Passkeys" count={props.passkeys.length} headingRef={heading}>
      {props.passkeys.length === 0 ? (
        <Empty title="No passkeys" />
      ) : (
        <ul class="list">
          {props.passkeys.map((passkey) => (
            <li key={passkey.id} class="list-item">
              <div class="list-main">
                <div class="list-title">{nameOf(passkey)}</div>
                <div class="list-meta muted">
                  {passkey.deviceType === "multiDevice" ? "Synced" : "This device only"}
                  {passkey.backedUp ? " · backed up" : ""} · added <Time iso={passkey.createdAt} />
                </div>
              </div>
              {props.onlyMethod ? (
                <OnlyMethodNote />
              ) : (
                <button
                  type="button"
                  class="btn btn-small"
                  onClick={() => setRevoking(passkey)}
                  aria-label={`Revoke ${nameOf(passkey)}`}
                >
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {revoking !== null ? (
        <ConfirmDialog
          title={`Revoke ${nameOf(revoking)}?`}
          confirmLabel="Revoke passkey"
          danger
          onClose={() => setRevoking(null)}
          focusAfter={() => heading.current}
          onConfirm={async () => {
            await api.revokePasskey({ params: { id: props.userId, passkeyId: revoking.id } });
            notify("Passkey revoked");
            props.onChanged();
          }}
        >
          The user can no longer sign in with this passkey.
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}
