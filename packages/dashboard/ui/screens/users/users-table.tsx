import type { User } from "../../api/types.ts";
import { Time } from "../../components/time.tsx";
import { initials } from "../../lib/format.ts";
import { Link } from "../../lib/navigation.tsx";

/** A user's initials in a tinted circle (profile images are not loaded: the CSP allows no third-party images). */
export function Avatar(props: { user: Pick<User, "name" | "email">; large?: boolean }) {
  return (
    <span class={props.large ? "avatar avatar-large" : "avatar"} aria-hidden="true">
      {initials(props.user.name, props.user.email)}
    </span>
  );
}

/** Account state as small labels: banned or active, unverified email, two-factor on. */
export function UserBadges(props: { user: User }) {
  const { user } = props;
  return (
    <span class="badges">
      {user.banned ? (
        <span class="badge badge-danger">Banned</span>
      ) : (
        <span class="badge badge-ok">Active</span>
      )}
      {user.emailVerified ? null : <span class="badge">Unverified</span>}
      {user.twoFactorEnabled ? <span class="badge badge-accent">2FA</span> : null}
    </span>
  );
}

/** A role name; "admin" stands out. `badge` draws every role as a pill (beside other badges). */
export function RoleLabel(props: { role: string; badge?: boolean }) {
  if (props.badge) {
    return (
      <span class={props.role === "admin" ? "badge badge-accent" : "badge"}>{props.role}</span>
    );
  }
  return <span class={props.role === "admin" ? "role role-admin" : "role"}>{props.role}</span>;
}

/**
 * One row per user; the name is a real link (Enter opens the drawer), and a
 * click anywhere on the row does the same. Long names and emails end in an
 * ellipsis (the full value is the link's name and the title), so one long
 * value never pushes the other columns away; on a phone the role shows as a
 * badge beside the state, and the last activity under them ("Never signed
 * in" for a user without one).
 */
export function UsersTable(props: {
  users: User[];
  hrefOf: (id: string) => string;
  showRole: boolean;
}) {
  const { showRole } = props;
  return (
    <div class="table-wrap">
      <table class="table table-rows table-fixed">
        <thead>
          <tr>
            <th scope="col">User</th>
            {showRole ? (
              <th scope="col" class="hide-narrow col-role">
                Role
              </th>
            ) : null}
            <th scope="col" class="hide-narrow col-status">
              Status
            </th>
            <th scope="col" class="hide-narrow col-created">
              Created
            </th>
            <th scope="col" class="hide-narrow col-activity">
              Last sign-in
            </th>
            <th scope="col" class="hide-narrow col-activity">
              Last active
            </th>
          </tr>
        </thead>
        <tbody>
          {props.users.map((user) => {
            const href = props.hrefOf(user.id);
            return (
              <tr
                key={user.id}
                class="row-link"
                onClick={(event) => {
                  const target = event.target as HTMLElement;
                  if (target.closest("a, button")) return;
                  (event.currentTarget.querySelector("a") as HTMLAnchorElement | null)?.click();
                }}
              >
                <td>
                  <div class="user-cell">
                    <Avatar user={user} />
                    <div class="user-cell-text">
                      <Link href={href} class="user-name" title={user.name || user.email}>
                        {user.name || user.email}
                      </Link>
                      <span class="muted user-email" title={user.email}>
                        {user.email}
                      </span>
                      <span class="show-narrow badges">
                        {showRole && user.role ? <RoleLabel role={user.role} badge /> : null}
                        <UserBadges user={user} />
                      </span>
                      <span class="show-narrow muted user-active">
                        {user.lastActiveAt === null ? (
                          "Never signed in"
                        ) : (
                          <>
                            Active <Time iso={user.lastActiveAt} />
                          </>
                        )}
                      </span>
                    </div>
                  </div>
                </td>
                {showRole ? (
                  <td class="hide-narrow">
                    {user.role ? <RoleLabel role={user.role} /> : <span class="muted">—</span>}
                  </td>
                ) : null}
                <td class="hide-narrow">
                  <UserBadges user={user} />
                </td>
                <td class="hide-narrow">
                  <Time iso={user.createdAt} />
                </td>
                <td class="hide-narrow">
                  <Time iso={user.lastSignInAt} empty="Never" />
                </td>
                <td class="hide-narrow">
                  <Time iso={user.lastActiveAt} empty="Never" />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
