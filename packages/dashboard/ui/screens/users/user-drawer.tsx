import { useState } from "preact/hooks";
import { ApiError } from "../../api/client.ts";
import type { UserDetail } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { lazyComponent } from "../../components/lazy.tsx";
import { LoadView } from "../../components/states.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { ApiKeysSection } from "../api-keys/api-keys-section.tsx";
import { MissingUser } from "./missing-user.tsx";
import { UserAccounts } from "./user-accounts.tsx";
import { UserActions } from "./user-actions.tsx";
import { UserCalls } from "./user-calls.tsx";
import { UserPasskeys } from "./user-passkeys.tsx";
import { UserProfile } from "./user-profile.tsx";
import { UserSessions } from "./user-sessions.tsx";

// The drawer's last sections (below the fold) are chunks of their own, off the first load.
const UserOrganizations = lazyComponent(() =>
  import("./user-organizations.tsx").then((module) => module.UserOrganizations),
);
const UserHistory = lazyComponent(() =>
  import("./user-history.tsx").then((module) => module.UserHistory),
);

/**
 * Everything about one user in a drawer over the list: profile, what an
 * operator may do (as capabilities allow), sessions, sign-in methods,
 * passkeys, organizations, API keys, and that user's recent admin history. Any change reloads the
 * drawer, the list behind it and the history. An id the server does not
 * know (a deleted user) gets a state that says so. After a delete, focus
 * goes to `returnFocus` (the list's heading), as the user's row is gone.
 */
export function UserDrawer(props: {
  userId: string;
  onClose: () => void;
  onChanged: () => void;
  onDeleted: () => void;
  returnFocus: () => HTMLElement | null;
}) {
  const { api, capabilities } = useApp();
  const { userId, onChanged } = props;
  const detail = useLoad<UserDetail>(
    (signal) => api.getUser({ params: { id: userId }, signal }),
    [userId],
  );
  const [revision, setRevision] = useState(0);
  const changed = () => {
    detail.reload();
    onChanged();
    setRevision((value) => value + 1);
  };
  const user = detail.data?.user;
  const missing =
    detail.data === undefined && detail.error instanceof ApiError && detail.error.status === 404;

  return (
    <Dialog
      variant="drawer"
      title={user ? user.name || user.email : missing ? "Unknown user" : "User"}
      onClose={props.onClose}
      returnFocus={props.returnFocus}
    >
      {missing ? (
        <MissingUser userId={userId} />
      ) : (
        <LoadView loaded={detail} label="Loading user…">
          {(data) => {
            const onlyMethod = data.accounts.length + (data.passkeys?.length ?? 0) <= 1;
            return (
              <div class="drawer-content">
                <UserProfile user={data.user} />
                {capabilities.userActions ? (
                  <UserActions
                    user={data.user}
                    profile={data.profile}
                    onChanged={changed}
                    onDeleted={props.onDeleted}
                  />
                ) : null}
                <UserSessions userId={userId} sessions={data.sessions} onChanged={changed} />
                <UserAccounts
                  userId={userId}
                  accounts={data.accounts}
                  onlyMethod={onlyMethod}
                  onChanged={changed}
                />
                {capabilities.passkeys ? (
                  <UserPasskeys
                    userId={userId}
                    passkeys={data.passkeys ?? []}
                    onlyMethod={onlyMethod}
                    onChanged={changed}
                  />
                ) : null}
                {capabilities.organizations ? (
                  <UserOrganizations userId={userId} revision={revision} />
                ) : null}
                <ApiKeysSection owner={{ userId }} ownerLabel={data.user.email} />
                <UserCalls userId={userId} />
                <UserHistory userId={userId} revision={revision} />
              </div>
            );
          }}
        </LoadView>
      )}
    </Dialog>
  );
}
