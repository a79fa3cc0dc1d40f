import type { User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { CopyButton } from "../../components/copy-button.tsx";
import { Time } from "../../components/time.tsx";
import { banLabel } from "../../lib/format.ts";
import { Avatar, RoleLabel, UserBadges } from "./users-table.tsx";

/** Who the user is: identity at the top, then every profile field the admin surface shares. */
export function UserProfile(props: { user: User }) {
  const { capabilities } = useApp();
  const { user } = props;
  const ban = banLabel(user);
  return (
    <div class="profile">
      <div class="profile-head">
        <Avatar user={user} large />
        <div class="profile-identity">
          <div class="profile-name">{user.name || user.email}</div>
          <div class="muted">{user.email}</div>
          <div class="badges">
            {capabilities.userActions && user.role ? <RoleLabel role={user.role} badge /> : null}
            <UserBadges user={user} />
          </div>
        </div>
      </div>
      {ban ? (
        <div class="notice notice-danger">
          <strong>{ban}.</strong>{" "}
          {user.banReason ? `Reason: ${user.banReason}` : "No reason given."}
        </div>
      ) : null}
      <dl class="fields">
        <dt>User ID</dt>
        <dd class="field-with-action">
          <code class="mono">{user.id}</code>
          <CopyButton value={user.id} label="Copy ID" />
        </dd>
        <dt>Email verified</dt>
        <dd>{user.emailVerified ? "Yes" : "No"}</dd>
        {capabilities.username ? (
          <>
            <dt>Username</dt>
            <dd>{user.username ?? <span class="muted">—</span>}</dd>
          </>
        ) : null}
        {capabilities.userActions ? (
          <>
            <dt>Role</dt>
            <dd>{user.role ?? <span class="muted">—</span>}</dd>
          </>
        ) : null}
        {capabilities.twoFactor ? (
          <>
            <dt>Two-factor</dt>
            <dd>{user.twoFactorEnabled ? "Enabled" : "Not enabled"}</dd>
          </>
        ) : null}
        <dt>Created</dt>
        <dd>
          <Time iso={user.createdAt} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <Time iso={user.updatedAt} />
        </dd>
        <dt>Last sign-in</dt>
        <dd>
          <Time iso={user.lastSignInAt} empty="Never" />
        </dd>
        <dt>Last active</dt>
        <dd>
          <Time iso={user.lastActiveAt} empty="Never" />
        </dd>
      </dl>
    </div>
  );
}
