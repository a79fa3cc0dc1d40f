import { useState } from "preact/hooks";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { FormActions, TextField } from "../../components/form-parts.tsx";
import { useToast } from "../../components/toasts.tsx";
import {
  emailProblem,
  passwordProblem,
  problemsOf,
  requiredProblem,
} from "../../lib/form-checks.ts";
import { useFormChecks } from "../../lib/use-form-checks.ts";
import { useSubmit } from "../../lib/use-submit.ts";

const FIELDS = ["email", "name", "password", "role"] as const;

/**
 * Creates a user (admin plugin). Email, name and password length are checked
 * before sending; what the server still refuses is shown at its field. The
 * dialog says plainly that a user created without a password has no way in
 * until someone sets one.
 */
export function CreateUserDialog(props: { onClose: () => void; onCreated: (id: string) => void }) {
  const { api, capabilities } = useApp();
  const notify = useToast();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState(capabilities.roles[0] ?? "");
  const checks = useFormChecks(
    problemsOf({
      email: emailProblem(email),
      name: requiredProblem(name, "a name"),
      password:
        password === "" ? undefined : passwordProblem(password, capabilities.passwordLength),
    }),
    FIELDS,
  );
  const { busy, error, submit } = useSubmit(async () => {
    if (checks.blocked()) return;
    const { user } = await api.createUser({
      email: email.trim(),
      name: name.trim(),
      ...(password === "" ? {} : { password }),
      ...(role === "" ? {} : { role }),
    });
    notify(`Created ${user.email}`);
    props.onCreated(user.id);
  });
  const problems = checks.problems(error);

  return (
    <Dialog title="New user" onClose={props.onClose}>
      <form ref={checks.form} class="stack" onSubmit={submit} noValidate>
        <TextField
          label="Email"
          name="email"
          type="email"
          value={email}
          onInput={setEmail}
          problem={problems.email}
          autofocus
        />
        <TextField
          label="Name"
          name="name"
          value={name}
          onInput={setName}
          problem={problems.name}
        />
        <TextField
          label={
            <>
              Password <span class="muted">(optional)</span>
            </>
          }
          name="password"
          type="password"
          value={password}
          onInput={setPassword}
          hint={
            password === ""
              ? "Without a password this user cannot sign in until you set one (Set password, in their drawer), unless your app offers another way in, such as a magic link or a social sign-in."
              : `At least ${capabilities.passwordLength.min} characters.`
          }
          problem={problems.password}
          autocomplete="new-password"
        />
        {capabilities.roles.length > 0 ? (
          <label class="field">
            <span class="field-label">Role</span>
            <select
              class="input"
              value={role}
              onChange={(event) => setRole(event.currentTarget.value)}
              aria-invalid={problems.role ? true : undefined}
            >
              {capabilities.roles.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
            {problems.role ? <span class="field-problem">{problems.role}</span> : null}
          </label>
        ) : null}
        <FormActions
          error={checks.footError(error)}
          busy={busy}
          onCancel={props.onClose}
          label="Create user"
          busyLabel="Creating…"
        />
      </form>
    </Dialog>
  );
}
