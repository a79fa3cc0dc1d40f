import { useState } from "preact/hooks";
import type { User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { useToast } from "../../components/toasts.tsx";
import { BanDialog } from "./ban-dialog.tsx";
import { EditProfileDialog } from "./edit-profile-dialog.tsx";
import { ImpersonateDialog } from "./impersonate-dialog.tsx";
import { PasswordDialog } from "./password-dialog.tsx";
import { RoleDialog } from "./role-dialog.tsx";
import { SignInLinkDialog } from "./sign-in-link-dialog.tsx";

type Open =
  | "profile"
  | "role"
  | "ban"
  | "unban"
  | "password"
  | "sign-in-link"
  | "impersonate"
  | "two-factor"
  | "delete"
  | null;

/**
 * The admin plugin's actions on one user. Only actions that apply are shown:
 * "Disable two-factor" needs the plugin and a user who has it on; "Send
 * sign-in link" needs a link the app can send and a user who is not banned;
 * "Ban" and "Unban" swap with the user's state. Each asks before it acts.
 */
export function UserActions(props: {
  user: User;
  profile: Readonly<Record<string, unknown>>;
  onChanged: () => void;
  onDeleted: () => void;
}) {
  const { api, capabilities } = useApp();
  const { user, onChanged } = props;
  const [open, setOpen] = useState<Open>(null);
  const notify = useToast();
  const close = () => setOpen(null);

  return (
    <div class="action-bar">
      {capabilities.userFields.length > 0 ? (
        <button type="button" class="btn btn-small" onClick={() => setOpen("profile")}>
          Edit profile
        </button>
      ) : null}
      {capabilities.roles.length > 0 ? (
        <button type="button" class="btn btn-small" onClick={() => setOpen("role")}>
          Change role
        </button>
      ) : null}
      {user.banned ? (
        <button type="button" class="btn btn-small" onClick={() => setOpen("unban")}>
          Unban
        </button>
      ) : (
        <button type="button" class="btn btn-small" onClick={() => setOpen("ban")}>
          Ban
        </button>
      )}
      <button type="button" class="btn btn-small" onClick={() => setOpen("password")}>
        Set password
      </button>
      {capabilities.signInLinks.length > 0 && !user.banned ? (
        <button type="button" class="btn btn-small" onClick={() => setOpen("sign-in-link")}>
          Send sign-in link
        </button>
      ) : null}
      <button type="button" class="btn btn-small" onClick={() => setOpen("impersonate")}>
        Impersonate
      </button>
      {capabilities.twoFactor && user.twoFactorEnabled ? (
        <button type="button" class="btn btn-small" onClick={() => setOpen("two-factor")}>
          Disable two-factor
        </button>
      ) : null}
      <button
        type="button"
        class="btn btn-small btn-danger-ghost"
        onClick={() => setOpen("delete")}
      >
        Delete user
      </button>

      {open === "profile" ? (
        <EditProfileDialog user={user} profile={props.profile} onClose={close} onDone={onChanged} />
      ) : null}
      {open === "role" ? <RoleDialog user={user} onClose={close} onDone={onChanged} /> : null}
      {open === "ban" ? <BanDialog user={user} onClose={close} onDone={onChanged} /> : null}
      {open === "password" ? (
        <PasswordDialog user={user} onClose={close} onDone={onChanged} />
      ) : null}
      {open === "sign-in-link" ? (
        <SignInLinkDialog user={user} onClose={close} onDone={onChanged} />
      ) : null}
      {open === "impersonate" ? (
        <ImpersonateDialog user={user} onClose={close} onDone={onChanged} />
      ) : null}
      {open === "unban" ? (
        <ConfirmDialog
          title={`Unban ${user.email}?`}
          confirmLabel="Unban"
          onClose={close}
          onConfirm={async () => {
            await api.unbanUser({ params: { id: user.id } });
            notify(`Unbanned ${user.email}`);
            onChanged();
          }}
        >
          They can sign in again straight away. The ban's reason stays in the audit trail.
        </ConfirmDialog>
      ) : null}
      {open === "two-factor" ? (
        <ConfirmDialog
          title="Disable two-factor?"
          confirmLabel="Disable two-factor"
          danger
          onClose={close}
          onConfirm={async () => {
            await api.disableTwoFactor({ params: { id: user.id } });
            notify(`Two-factor disabled for ${user.email}`);
            onChanged();
          }}
        >
          {user.email} will sign in with their password alone until they set up two-factor again.
        </ConfirmDialog>
      ) : null}
      {open === "delete" ? (
        <ConfirmDialog
          title="Delete this user?"
          confirmLabel="Delete user"
          danger
          requireText={user.email}
          onClose={close}
          onConfirm={async () => {
            await api.deleteUser({ params: { id: user.id } });
            notify(`Deleted ${user.email}`);
            props.onDeleted();
          }}
        >
          This removes {user.email}, their sessions, sign-in methods and memberships. It cannot be
          undone.
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
