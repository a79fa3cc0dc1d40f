import { useApp } from "../../app-context.ts";
import { useToast } from "../../components/toasts.tsx";
import { MemberEmailDialog } from "./member-email-dialog.tsx";

const WORDS = {
  title: "Add member",
  emailLabel: "Email of an existing user",
  action: "Add member",
  busyAction: "Adding…",
};

/**
 * Adds an existing user to the organization straight away, by email (someone
 * without an account is invited instead; the server's refusal says so).
 */
export function AddMemberDialog(props: { orgId: string; onClose: () => void; onDone: () => void }) {
  const { api } = useApp();
  const notify = useToast();
  return (
    <MemberEmailDialog
      words={WORDS}
      onClose={props.onClose}
      onSubmit={async (email, role) => {
        const { member } = await api.addMember({
          params: { id: props.orgId },
          body: { email, role },
        });
        notify(`Added ${member.user.email} as ${member.role}`);
        props.onDone();
        props.onClose();
      }}
    />
  );
}
