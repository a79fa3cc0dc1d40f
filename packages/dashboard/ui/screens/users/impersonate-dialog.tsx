import { useId, useState } from "preact/hooks";
import type { Impersonation, User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { CopyButton } from "../../components/copy-button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { AuditReasonField, FormActions } from "../../components/form-parts.tsx";
import { absoluteTime } from "../../lib/format.ts";
import { useSubmit } from "../../lib/use-submit.ts";

/** Up to the server's default (and usual maximum) of one hour: impersonation should be brief. */
const DURATIONS: readonly { seconds: number; label: string }[] = [
  { seconds: 15 * 60, label: "15 minutes" },
  { seconds: 30 * 60, label: "30 minutes" },
  { seconds: 3600, label: "1 hour" },
];

/**
 * Starts an impersonation session. The answer holds the only token the admin
 * surface ever returns: it is shown once, in this dialog's memory only, with
 * a copy button, and is gone when the dialog closes. The session is recorded
 * with the operator's name and can be revoked like any other.
 */
export function ImpersonateDialog(props: { user: User; onClose: () => void; onDone: () => void }) {
  const { api } = useApp();
  const { user } = props;
  const tokenId = useId();
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
    return (
      <Dialog title={`Impersonating ${user.email}`} onClose={props.onClose}>
        <div class="stack">
          <p>
            A session as {user.email} is open until{" "}
            <strong>{absoluteTime(result.expiresAt)}</strong>. Its token is shown only this once:
            copy it now.
          </p>
          <label class="field">
            <span class="field-label">Session token</span>
            <div class="token-row">
              <input
                id={tokenId}
                class="input mono token"
                readOnly
                value={result.token}
                onFocus={(event) => event.currentTarget.select()}
                aria-describedby={`${tokenId}-hint`}
              />
              <CopyButton value={result.token} fallbackTarget={tokenId} />
            </div>
          </label>
          <p id={`${tokenId}-hint`} class="muted small">
            To end it early, revoke session <code class="mono">{result.sessionId}</code> in the
            user's sessions.
          </p>
          <div class="actions">
            <button type="button" class="btn btn-primary" onClick={props.onClose} autofocus>
              Done
            </button>
          </div>
        </div>
      </Dialog>
    );
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
