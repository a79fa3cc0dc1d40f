import { useState } from "preact/hooks";
import type { Impersonation, User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { AuditReasonField, FormActions } from "../../components/form-parts.tsx";
import { useSubmit } from "../../lib/use-submit.ts";
import { ImpersonationToken } from "./impersonation-token.tsx";

/** Up to the server's default (and usual maximum) of one hour: impersonation should be brief. */
const DURATIONS: readonly { seconds: number; label: string }[] = [
  { seconds: 15 * 60, label: "15 minutes" },
  { seconds: 30 * 60, label: "30 minutes" },
  { seconds: 3600, label: "1 hour" },
];

/**
 * Starts an impersonation session, then shows its token (see
 * {@link ImpersonationToken}). The session is recorded with the operator's
 * name and can be revoked like any other.
 */
export function ImpersonateDialog(props: { user: User; onClose: () => void; onDone: () => void }) {
  const { api } = useApp();
  const { user } = props;
  const [reason, setReason] = useState("");
  const [seconds, setSeconds] = useState(3600);
  const [result, setResult] = useState<Impersonation | null>(null);
  const { busy, error, submit } = useSubmit(async () => {
    const trimmed = reason.trim();
    setResult(
      await api.impersonate(user.id, {
        durationSeconds: seconds,
        ...(trimmed === "" ? {} : { reason: trimmed }),
      }),
    );
    props.onDone();
  });

  if (result !== null) {
    return <ImpersonationToken user={user} impersonation={result} onClose={props.onClose} />;
  }

  return (
    <Dialog title={`Impersonate ${user.email}?`} onClose={props.onClose}>
      <form class="stack" onSubmit={submit}>
        <p class="muted">
          This opens a real session as this user. It is recorded under your operator name.
        </p>
        <AuditReasonField value={reason} onInput={setReason} />
        <label class="field">
          <span class="field-label">Lasts</span>
          <select
            class="input"
            value={String(seconds)}
            onChange={(event) => setSeconds(Number(event.currentTarget.value))}
          >
            {DURATIONS.map((option) => (
              <option key={option.seconds} value={String(option.seconds)}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <FormActions
          error={error}
          busy={busy}
          onCancel={props.onClose}
          label="Start impersonation"
          busyLabel="Starting…"
        />
      </form>
    </Dialog>
  );
}
