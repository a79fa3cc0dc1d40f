import { useState } from "preact/hooks";
import type { User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { AuditReasonField, FormActions } from "../../components/form-parts.tsx";
import { useToast } from "../../components/toasts.tsx";
import { isoAfter } from "../../lib/format.ts";
import { useSubmit } from "../../lib/use-submit.ts";

const HOUR = 3600;
const DURATIONS: readonly { value: string; label: string; seconds: number | null }[] = [
  { value: "permanent", label: "Permanently", seconds: null },
  { value: "1h", label: "For 1 hour", seconds: HOUR },
  { value: "1d", label: "For 1 day", seconds: 24 * HOUR },
  { value: "7d", label: "For 7 days", seconds: 7 * 24 * HOUR },
  { value: "30d", label: "For 30 days", seconds: 30 * 24 * HOUR },
  { value: "custom", label: "Until a date…", seconds: null },
];

/**
 * Bans a user, permanently or until a time, with an optional reason (kept in
 * the audit trail). The server revokes the user's sessions as it bans.
 */
export function BanDialog(props: { user: User; onClose: () => void; onDone: () => void }) {
  const { api } = useApp();
  const notify = useToast();
  const { user } = props;
  const [reason, setReason] = useState("");
  const [duration, setDuration] = useState("permanent");
  const [until, setUntil] = useState("");

  const expiresAt = (): string | undefined => {
    if (duration === "custom") return until === "" ? undefined : new Date(until).toISOString();
    const seconds = DURATIONS.find((option) => option.value === duration)?.seconds ?? null;
    return seconds === null ? undefined : isoAfter(seconds);
  };

  const { busy, error, submit } = useSubmit(async () => {
    const trimmed = reason.trim();
    const expiry = expiresAt();
    await api.ban(user.id, {
      ...(trimmed === "" ? {} : { reason: trimmed }),
      ...(expiry === undefined ? {} : { expiresAt: expiry }),
    });
    notify(`Banned ${user.email}`);
    props.onDone();
    props.onClose();
  });

  return (
    <Dialog title={`Ban ${user.email}?`} onClose={props.onClose}>
      <form class="stack" onSubmit={submit}>
        <p class="muted">They are signed out everywhere and cannot sign in while banned.</p>
        <AuditReasonField value={reason} onInput={setReason} />
        <label class="field">
          <span class="field-label">Duration</span>
          <select
            class="input"
            name="duration"
            value={duration}
            onChange={(event) => setDuration(event.currentTarget.value)}
          >
            {DURATIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        {duration === "custom" ? (
          <label class="field">
            <span class="field-label">Banned until</span>
            <input
              class="input"
              type="datetime-local"
              value={until}
              onInput={(event) => setUntil(event.currentTarget.value)}
              required
            />
          </label>
        ) : null}
        <FormActions
          error={error}
          busy={busy}
          onCancel={props.onClose}
          label="Ban user"
          busyLabel="Banning…"
          tone="danger"
        />
      </form>
    </Dialog>
  );
}
