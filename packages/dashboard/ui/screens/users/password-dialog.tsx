import { useState } from "preact/hooks";
import type { User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { FormActions } from "../../components/form-parts.tsx";
import { useToast } from "../../components/toasts.tsx";
import { useSubmit } from "../../lib/use-submit.ts";

/**
 * Sets a new password. When the user had no email-and-password sign-in, the
 * server creates one and the toast says so (no silent no-op).
 */
export function PasswordDialog(props: { user: User; onClose: () => void }) {
  const { api } = useApp();
  const notify = useToast();
  const { user } = props;
  const [password, setPassword] = useState("");
  const { busy, error, submit } = useSubmit(async () => {
    const answer = await api.setPassword(user.id, password);
    notify(
      answer.createdCredentialAccount
        ? `Password set: ${user.email} can now sign in with email and password`
        : `Password changed for ${user.email}`,
    );
    props.onClose();
  });
  return (
    <Dialog title="Set password" onClose={props.onClose}>
      <form class="stack" onSubmit={submit}>
        <label class="field">
          <span class="field-label">New password for {user.email}</span>
          <input
            class="input"
            type="password"
            value={password}
            onInput={(event) => setPassword(event.currentTarget.value)}
            autocomplete="new-password"
            required
            autofocus
          />
        </label>
        <p class="muted small">Share it through a safe channel; the user can change it later.</p>
        <FormActions
          error={error}
          busy={busy}
          onCancel={props.onClose}
          label="Set password"
          busyLabel="Saving…"
          disabled={password === ""}
        />
      </form>
    </Dialog>
  );
}
