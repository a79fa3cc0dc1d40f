import { Link } from "../lib/navigation.tsx";
import { userHref } from "../lib/routes.ts";

/** Whom an id names, as the admin API tells it. */
export interface UserName {
  name: string;
  email: string;
}

/**
 * A user by name and email, leading to that user (the Users page with their
 * drawer open); the id is the link's tooltip. Without a name (a deleted
 * user, or one not looked up yet) the id itself is the text. `short` (a
 * table cell) writes the name alone and moves the email into the tooltip.
 *
 * @example <UserLink id={entry.userId} user={entry.user} />
 */
export function UserLink(props: { id: string; user: UserName | null; short?: boolean }) {
  const { id, user } = props;
  const nameless = user === null || user.name === "" || user.name === user.email;
  const label =
    user === null
      ? id
      : nameless
        ? user.email
        : props.short === true
          ? user.name
          : `${user.name} (${user.email})`;
  const title =
    user !== null && props.short === true ? `${user.email} · open user ${id}` : `Open user ${id}`;
  return (
    <Link class={user === null ? "mono" : undefined} href={userHref(id)} title={title}>
      {label}
    </Link>
  );
}
