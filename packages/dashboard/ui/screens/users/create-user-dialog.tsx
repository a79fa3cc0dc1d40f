import { useState } from "preact/hooks";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { FormActions } from "../../components/form-parts.tsx";
import { useToast } from "../../components/toasts.tsx";
import { useSubmit } from "../../lib/use-submit.ts";

/** Creates a user (admin plugin). Without a password the user signs in by other means. */
export function CreateUserDialog(props: { onClose: () => void; onCreated: (id: string) => void }) {
  const { api, capabilities } = useApp();
  const notify = useToast();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState(capabilities.roles[0] ?? "");
  const { busy, error, submit } = useSubmit(async () => {
    const { user } = await api.createUser({
      email: email.trim(),
      name: name.trim(),
      ...(password === "" ? {} : { password }),
      ...(role === "" ? {} : { role }),
    });
    notify(`Created ${user.email}`);
    props.onCreated(user.id);
  });

  return (
    <Dialog title="New user" onClose={props.onClose}>
      <form class="stack" onSubmit={submit}>
        <label class="field">
          <span class="field-label">Email</span>
          <input
            class="input"
            type="email"
            value={email}
            onInput={(event) => setEmail(event.currentTarget.value)}
            required
            autofocus
            autocomplete="off"
          />
        </label>
        <label class="field">
          <span class="field-label">Name</span>
          <input
            class="input"
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
            required
            autocomplete="off"
          />
        </label>
        <label class="field">
          <span class="field-label">
            Password <span class="muted">(optional)</span>
          </span>
          <input
            class="input"
            type="password"
            value={password}
            onInput={(event) => setPassword(event.currentTarget.value)}
            autocomplete="new-password"
          />
        </label>
        {capabilities.roles.length > 0 ? (
          <label class="field">
            <span class="field-label">Role</span>
            <select
              class="input"
              value={role}
              onChange={(event) => setRole(event.currentTarget.value)}
            >
              {capabilities.roles.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <FormActions
          error={error}
          busy={busy}
          onCancel={props.onClose}
          label="Create user"
          busyLabel="Creating…"
        />
      </form>
    </Dialog>
  );
}
