import { useState } from "preact/hooks";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { useToast } from "../../components/toasts.tsx";
import { MemberEmailDialog } from "./member-email-dialog.tsx";
import { NotEmailedNote } from "./not-emailed-note.tsx";

const WORDS = {
  title: "Invite by email",
  emailLabel: "Email",
  action: "Send invitation",
  busyAction: "Inviting…",
};

/**
 * Invites someone by email. When the app sends no invitation emails
 * (`emailed: false`), the dialog stays open to say so: the operator must
 * tell the person, or nobody will.
 */
export function InviteDialog(props: { orgId: string; onClose: () => void; onDone: () => void }) {
  const { api } = useApp();
  const notify = useToast();
  const [unsent, setUnsent] = useState<string | null>(null);

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
    <MemberEmailDialog
      words={WORDS}
      onClose={props.onClose}
      onSubmit={async (email, role) => {
        const { invitation, emailed } = await api.invite({
          params: { id: props.orgId },
          body: { email, role },
        });
        props.onDone();
        if (emailed) {
          notify(`Invitation emailed to ${invitation.email}`);
          props.onClose();
        } else {
          setUnsent(invitation.email);
        }
      }}
    />
  );
}
