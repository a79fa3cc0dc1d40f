import { useState } from "preact/hooks";
import { CheckedFormDialog } from "../../components/checked-form-dialog.tsx";
import { TextField } from "../../components/form-parts.tsx";
import { emailProblem, problemsOf, requiredProblem } from "../../lib/form-checks.ts";
import { useFormChecks } from "../../lib/use-form-checks.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { MemberRoleField } from "./member-role-field.tsx";

const FIELDS = ["email", "role"] as const;

/** The words of one {@link MemberEmailDialog}: adding a user and inviting one differ only in these. */
export interface MemberEmailDialogWords {
  title: string;
  emailLabel: string;
  action: string;
  busyAction: string;
}

/**
 * The form both ways of bringing someone into an organization share: an
 * email and a role, checked as typed, sent once. Adding an existing user and
 * inviting by email differ only in their words and in what `onSubmit` calls,
 * so the checks and the server's field problems behave the same in both.
 *
 * @example
 * ```tsx
 * <MemberEmailDialog
 *   words={{ title: "Add member", emailLabel: "Email", action: "Add member", busyAction: "Adding…" }}
 *   onSubmit={(email, role) => api.addMember({ params: { id }, body: { email, role } })}
 *   onClose={close}
 * />
 * ```
 */
export function MemberEmailDialog(props: {
  words: MemberEmailDialogWords;
  onSubmit: (email: string, role: string) => Promise<void>;
  onClose: () => void;
}) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("member");
  const checks = useFormChecks(
    problemsOf({ email: emailProblem(email), role: requiredProblem(role, "a role") }),
    FIELDS,
  );
  const sent = useSubmit(async () => {
    if (checks.blocked()) return;
    await props.onSubmit(email.trim(), role.trim());
  });
  const problems = checks.problems(sent.error);
  const { words } = props;
  return (
    <CheckedFormDialog
      title={words.title}
      onClose={props.onClose}
      checks={checks}
      submit={sent}
      label={words.action}
      busyLabel={words.busyAction}
    >
      <TextField
        label={words.emailLabel}
        name="email"
        type="email"
        value={email}
        onInput={setEmail}
        problem={problems.email}
        autofocus
      />
      <MemberRoleField value={role} onInput={setRole} problem={problems.role} />
    </CheckedFormDialog>
  );
}
