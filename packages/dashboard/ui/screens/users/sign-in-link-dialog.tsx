import { useState } from "preact/hooks";
import type { SignInLinkKind, User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { FormActions } from "../../components/form-parts.tsx";
import { useToast } from "../../components/toasts.tsx";
import { useSubmit } from "../../lib/use-submit.ts";
import { SignInLinkChoice, sentMessage } from "./sign-in-link-choice.tsx";

/**
 * Emails an existing user a sign-in link through the app's own sender: a
 * magic link, or a link to set a password (e.g. when the one sent at creation
 * failed or expired). The toast says what went to whom. For a user whose
 * email is not verified, it warns what following a magic link removes.
 */
export function SignInLinkDialog(props: { user: User; onClose: () => void; onDone: () => void }) {
  const { api, capabilities } = useApp();
  const notify = useToast();
  const { user } = props;
  const [kind, setKind] = useState<SignInLinkKind>(capabilities.signInLinks[0] ?? "magic-link");
  const { busy, error, submit } = useSubmit(async () => {
    const { signInLink } = await api.sendSignInLink({ params: { id: user.id }, body: { kind } });
    notify(sentMessage(signInLink));
    props.onDone();
    props.onClose();
  });
  return (
    <Dialog title="Send sign-in link" onClose={props.onClose}>
      <form class="stack" onSubmit={submit}>
        <SignInLinkChoice
          legend={`Sign-in link for ${user.email}`}
          kinds={capabilities.signInLinks}
          value={kind}
          onChange={(value) => {
            if (value !== "none") setKind(value);
          }}
        />
        {kind === "magic-link" && !user.emailVerified ? (
          <p class="notice notice-info" role="status">
            {user.email} is not verified. Following the link verifies it, and better-auth then
            removes the password, linked accounts and sessions the user had before, since it cannot
            tell they were theirs.
          </p>
        ) : null}
        <p class="muted small">
          The email comes from your app, and the link expires as your app's auth configures.
        </p>
        <FormActions
          error={error}
          busy={busy}
          onCancel={props.onClose}
          label="Send link"
          busyLabel="Sending…"
        />
      </form>
    </Dialog>
  );
}
