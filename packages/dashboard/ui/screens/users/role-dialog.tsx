import { useState } from "preact/hooks";
import type { User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { FormActions } from "../../components/form-parts.tsx";
import { useToast } from "../../components/toasts.tsx";
import { useSubmit } from "../../lib/use-submit.ts";

/** Picks one of the roles the server allows (`capabilities.roles`). */
export function RoleDialog(props: { user: User; onClose: () => void; onDone: () => void }) {
  const { api, capabilities } = useApp();
  const notify = useToast();
  const { user } = props;
  const [role, setRole] = useState(user.role ?? capabilities.roles[0] ?? "");
  const { busy, error, submit } = useSubmit(async () => {
    await api.setRole({ params: { id: user.id }, body: { role } });
    notify(`${user.email} is now ${role}`);
    props.onDone();
    props.onClose();
  });
  return (
    <Dialog title="Change role" onClose={props.onClose}>
      <form class="stack" onSubmit={submit}>
        <fieldset class="choices">
          <legend class="field-label">Role of {user.email}</legend>
          {capabilities.roles.map((option) => (
            <label key={option} class="choice">
              <input
                type="radio"
                name="role"
                value={option}
                checked={role === option}
                onChange={() => setRole(option)}
              />
              <span>{option}</span>
            </label>
          ))}
        </fieldset>
        <FormActions
          error={error}
          busy={busy}
          onCancel={props.onClose}
          label="Save role"
          busyLabel="Saving…"
          disabled={role === user.role}
        />
      </form>
    </Dialog>
  );
}
