import { useState } from "preact/hooks";
import type { Member } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { CheckedFormDialog } from "../../components/checked-form-dialog.tsx";
import { useToast } from "../../components/toasts.tsx";
import { problemsOf, requiredProblem } from "../../lib/form-checks.ts";
import { useFormChecks } from "../../lib/use-form-checks.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { MemberRoleField } from "./member-role-field.tsx";

const FIELDS = ["role"] as const;

/** Changes one member's role; taking the owner role from the last owner is refused in place. */
export function MemberRoleDialog(props: {
  orgId: string;
  member: Member;
  onClose: () => void;
  onDone: () => void;
}) {
  const { api } = useApp();
  const notify = useToast();
  const { member } = props;
  const [role, setRole] = useState(member.role);
  const checks = useFormChecks(problemsOf({ role: requiredProblem(role, "a role") }), FIELDS);
  const sent = useSubmit(async () => {
    if (checks.blocked()) return;
    const { member: changed } = await api.setMemberRole({
      params: { id: props.orgId, memberId: member.id },
      body: { role: role.trim() },
    });
    notify(`${member.user.email} is now ${changed.role}`);
    props.onDone();
    props.onClose();
  });
  const problems = checks.problems(sent.error);
  return (
    <CheckedFormDialog
      title={`Role of ${member.user.email}`}
      onClose={props.onClose}
      checks={checks}
      submit={sent}
      label="Save role"
      busyLabel="Saving…"
      disabled={role.trim() === member.role}
    >
      <MemberRoleField value={role} onInput={setRole} problem={problems.role} autofocus />
    </CheckedFormDialog>
  );
}
