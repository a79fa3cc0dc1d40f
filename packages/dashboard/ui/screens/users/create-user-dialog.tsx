import { useState } from "preact/hooks";
import type { SignInLinkKind } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { CheckedFormDialog } from "../../components/checked-form-dialog.tsx";
import { TextField } from "../../components/form-parts.tsx";
import { useToast } from "../../components/toasts.tsx";
import {
  emailProblem,
  passwordProblem,
  problemsOf,
  requiredProblem,
} from "../../lib/form-checks.ts";
import { signInChoice } from "../../lib/sign-in-choice.ts";
import { useFormChecks } from "../../lib/use-form-checks.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { SignInLinkChoice, sentMessage } from "./sign-in-link-choice.tsx";

const FIELDS = ["email", "name", "password", "role"] as const;

/**
 * Creates a user (admin plugin). Email, name and password length are checked
 * before sending; what the server still refuses is shown at its field. When
 * the app can email sign-in links, the operator picks one (the first by
 * default while no password is typed; a password-setup link only without a
 * password), and the toast says what was sent to whom. The dialog says
 * plainly when the user would have no way in: no password, no link, and
 * nothing on the app's sign-in page they could use instead.
 */
export function CreateUserDialog(props: { onClose: () => void; onCreated: (id: string) => void }) {
  const { api, capabilities } = useApp();
  const notify = useToast();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState(capabilities.roles[0] ?? "");
  const [linkChoice, setLinkChoice] = useState<SignInLinkKind | "none" | null>(null);
  const { offered, link, noWayIn } = signInChoice(capabilities, password, linkChoice);
  const checks = useFormChecks(
    problemsOf({
      email: emailProblem(email),
      name: requiredProblem(name, "a name"),
      password:
        password === "" ? undefined : passwordProblem(password, capabilities.passwordLength),
    }),
    FIELDS,
  );
  const sent = useSubmit(async () => {
    if (checks.blocked()) return;
    const { user, signInLink } = await api.createUser({
      body: {
        email: email.trim(),
        name: name.trim(),
        ...(password === "" ? {} : { password }),
        ...(role === "" ? {} : { role }),
        ...(link === "none" ? {} : { signInLink: link }),
      },
    });
    if (signInLink === undefined) notify(`Created ${user.email}`);
    else
      notify(`Created ${user.email}. ${sentMessage(signInLink)}`, signInLink.sent ? "ok" : "error");
    props.onCreated(user.id);
  });
  const problems = checks.problems(sent.error);

  return (
    <CheckedFormDialog
      title="New user"
      onClose={props.onClose}
      checks={checks}
      submit={sent}
      label="Create user"
      busyLabel="Creating…"
    >
      <TextField
        label="Email"
        name="email"
        type="email"
        value={email}
        onInput={setEmail}
        problem={problems.email}
        autofocus
      />
      <TextField label="Name" name="name" value={name} onInput={setName} problem={problems.name} />
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
            ? "Leave empty to let them sign in another way."
            : `At least ${capabilities.passwordLength.min} characters.`
        }
        problem={problems.password}
        autocomplete="new-password"
      />
      {offered.length > 0 ? (
        <SignInLinkChoice
          legend="Sign-in link"
          kinds={offered}
          value={link}
          onChange={setLinkChoice}
          allowNone
        />
      ) : null}
      {noWayIn ? (
        <p class="notice notice-info" role="status">
          {email.trim() || "This user"} will have no way to sign in: no password, and this app
          cannot email a sign-in link. Type a password, or set one later (Set password, in their
          drawer); only a social sign-in with the same email would let them in.
        </p>
      ) : password === "" && link === "none" ? (
        <p class="muted small">
          No email is sent. They can still start signing in by email from your app's sign-in page.
        </p>
      ) : null}
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
    </CheckedFormDialog>
  );
}
