import { useState } from "preact/hooks";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { FormActions, TextField } from "../../components/form-parts.tsx";
import { useToast } from "../../components/toasts.tsx";
import { emailProblem, problemsOf, requiredProblem } from "../../lib/form-checks.ts";
import { useFormChecks } from "../../lib/use-form-checks.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { MemberRoleField } from "./member-role-field.tsx";

const FIELDS = ["email", "role"] as const;

/**
 * Adds an existing user to the organization straight away, by email (someone
 * without an account is invited instead; the server's refusal says so).
 */
export function AddMemberDialog(props: { orgId: string; onClose: () => void; onDone: () => void }) {
  const { api } = useApp();
  const notify = useToast();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("member");
  const checks = useFormChecks(
    problemsOf({ email: emailProblem(email), role: requiredProblem(role, "a role") }),
    FIELDS,
  );
  const { busy, error, submit } = useSubmit(async () => {
    if (checks.blocked()) return;
    const { member } = await api.addMember({
      params: { id: props.orgId },
      body: { email: email.trim(), role: role.trim() },
    });
    notify(`Added ${member.user.email} as ${member.role}`);
    props.onDone();
    props.onClose();
  });
  const problems = checks.problems(error);
  return (
    <Dialog title="Add member" onClose={props.onClose}>
      <form ref={checks.form} class="stack" onSubmit={submit} noValidate>
        <TextField
          label="Email of an existing user"
          name="email"
          type="email"
          value={email}
          onInput={setEmail}
          problem={problems.email}
          autofocus
        />
        <MemberRoleField value={role} onInput={setRole} problem={problems.role} />
        <FormActions
          error={checks.footError(error)}
          busy={busy}
          onCancel={props.onClose}
          label="Add member"
          busyLabel="Adding…"
        />
      </form>
    </Dialog>
  );
}
