import { useState } from "preact/hooks";
import type { User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { CheckedFormDialog } from "../../components/checked-form-dialog.tsx";
import { AuditReasonField, TextField } from "../../components/form-parts.tsx";
import { useToast } from "../../components/toasts.tsx";
import { futureProblem, problemsOf } from "../../lib/form-checks.ts";
import { isoAfter } from "../../lib/format.ts";
import { useFormChecks } from "../../lib/use-form-checks.ts";
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
 * the audit trail). The server revokes the user's sessions as it bans. A
 * date that is not in the future is refused here, before anything is sent.
 */
export function BanDialog(props: { user: User; onClose: () => void; onDone: () => void }) {
  const { api } = useApp();
  const notify = useToast();
  const { user } = props;
  const [reason, setReason] = useState("");
  const [duration, setDuration] = useState("permanent");
  const [until, setUntil] = useState("");

  const checks = useFormChecks(
    problemsOf({ expiresAt: duration === "custom" ? futureProblem(until) : undefined }),
    ["expiresAt"],
  );

  const expiresAt = (): string | undefined => {
    if (duration === "custom") return new Date(until).toISOString();
    const seconds = DURATIONS.find((option) => option.value === duration)?.seconds ?? null;
    return seconds === null ? undefined : isoAfter(seconds);
  };

  const sent = useSubmit(async () => {
    if (checks.blocked()) return;
    const trimmed = reason.trim();
    const expiry = expiresAt();
    await api.banUser({
      params: { id: user.id },
      body: {
        ...(trimmed === "" ? {} : { reason: trimmed }),
        ...(expiry === undefined ? {} : { expiresAt: expiry }),
      },
    });
    notify(`Banned ${user.email}`);
    props.onDone();
    props.onClose();
  });
  const problems = checks.problems(sent.error);

  return (
    <CheckedFormDialog
      title={`Ban ${user.email}?`}
      onClose={props.onClose}
      checks={checks}
      submit={sent}
      label="Ban user"
      busyLabel="Banning…"
      tone="danger"
    >
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
        <TextField
          label="Banned until"
          name="expiresAt"
          type="datetime-local"
          value={until}
          onInput={setUntil}
          problem={problems.expiresAt}
        />
      ) : null}
    </CheckedFormDialog>
  );
}
