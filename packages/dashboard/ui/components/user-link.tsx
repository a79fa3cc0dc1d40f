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
 * user, or one not looked up yet) the id itself is the text.
 *
 * @example <UserLink id={entry.userId} user={entry.user} />
 */
export function UserLink(props: { id: string; user: UserName | null }) {
  const { id, user } = props;
  const label =
    user === null
      ? id
      : user.name === "" || user.name === user.email
        ? user.email
        : `${user.name} (${user.email})`;
  return (
    <Link class={user === null ? "mono" : undefined} href={userHref(id)} title={`Open user ${id}`}>
      {label}
    </Link>
  );
}
