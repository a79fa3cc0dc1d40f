import { useState } from "preact/hooks";
import type { User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { CheckedFormDialog } from "../../components/checked-form-dialog.tsx";
import { TextField } from "../../components/form-parts.tsx";
import { useToast } from "../../components/toasts.tsx";
import { passwordProblem, problemsOf } from "../../lib/form-checks.ts";
import { useFormChecks } from "../../lib/use-form-checks.ts";
import { useSubmit } from "../../lib/use-submit.ts";

/**
 * Sets a new password. The length the server allows is checked before
 * sending, so a typo never becomes a failed audit entry. When the user had
 * no email-and-password sign-in, the server creates one and the toast says
 * so (no silent no-op); the drawer reloads to show it.
 */
export function PasswordDialog(props: { user: User; onClose: () => void; onDone: () => void }) {
  const { api, capabilities } = useApp();
  const notify = useToast();
  const { user } = props;
  const [password, setPassword] = useState("");
  const checks = useFormChecks(
    problemsOf({ password: passwordProblem(password, capabilities.passwordLength) }),
    ["password"],
  );
  const sent = useSubmit(async () => {
    if (checks.blocked()) return;
    const answer = await api.setPassword({ params: { id: user.id }, body: { password } });
    notify(
      answer.createdCredentialAccount
        ? `Password set: ${user.email} can now sign in with email and password`
        : `Password changed for ${user.email}`,
    );
    props.onDone();
    props.onClose();
  });
  const problems = checks.problems(sent.error);
  return (
    <CheckedFormDialog
      title="Set password"
      onClose={props.onClose}
      checks={checks}
      submit={sent}
      label="Set password"
      busyLabel="Saving…"
    >
      <TextField
        label={`New password for ${user.email}`}
        name="password"
        type="password"
        value={password}
        onInput={setPassword}
        hint={`At least ${capabilities.passwordLength.min} characters. Share it through a safe channel; the user can change it later.`}
        problem={problems.password}
        autocomplete="new-password"
        autofocus
      />
    </CheckedFormDialog>
  );
}
