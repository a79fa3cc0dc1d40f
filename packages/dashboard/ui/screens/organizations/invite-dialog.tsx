import { useState } from "preact/hooks";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { FormActions, TextField } from "../../components/form-parts.tsx";
import { useToast } from "../../components/toasts.tsx";
import { emailProblem, problemsOf, requiredProblem } from "../../lib/form-checks.ts";
import { useFormChecks } from "../../lib/use-form-checks.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { MemberRoleField } from "./member-role-field.tsx";
import { NotEmailedNote } from "./not-emailed-note.tsx";

const FIELDS = ["email", "role"] as const;

/**
 * Invites someone by email. When the app sends no invitation emails
 * (`emailed: false`), the dialog stays open to say so: the operator must
 * tell the person, or nobody will.
 */
export function InviteDialog(props: { orgId: string; onClose: () => void; onDone: () => void }) {
  const { api } = useApp();
  const notify = useToast();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("member");
  const [unsent, setUnsent] = useState<string | null>(null);
  const checks = useFormChecks(
    problemsOf({ email: emailProblem(email), role: requiredProblem(role, "a role") }),
    FIELDS,
  );
  const { busy, error, submit } = useSubmit(async () => {
    if (checks.blocked()) return;
    const { invitation, emailed } = await api.invite({
      params: { id: props.orgId },
      body: { email: email.trim(), role: role.trim() },
    });
    props.onDone();
    if (emailed) {
      notify(`Invitation emailed to ${invitation.email}`);
      props.onClose();
    } else {
      setUnsent(invitation.email);
    }
  });
  const problems = checks.problems(error);

  if (unsent !== null) {
    return (
      <Dialog title="Invitation created" onClose={props.onClose}>
        <div class="stack">
          <NotEmailedNote email={unsent} />
          <div class="actions">
            <button type="button" class="btn btn-primary" onClick={props.onClose} autofocus>
              Done
            </button>
          </div>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog title="Invite by email" onClose={props.onClose}>
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
        <MemberRoleField value={role} onInput={setRole} problem={problems.role} />
        <FormActions
          error={checks.footError(error)}
          busy={busy}
          onCancel={props.onClose}
          label="Send invitation"
          busyLabel="Inviting…"
        />
      </form>
    </Dialog>
  );
}
