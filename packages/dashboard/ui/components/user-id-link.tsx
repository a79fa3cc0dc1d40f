import { Link } from "../lib/navigation.tsx";
import { userHref } from "../lib/routes.ts";

/**
 * A user's id that leads to that user (the Users page with their drawer
 * open), wherever an id is shown: a document field holding a user id, a
 * call's caller. The id stays the text, so it can still be read and copied.
 *
 * @example <UserIdLink id={document.author} />
 */
export function UserIdLink(props: { id: string }) {
  return (
    <Link class="mono" href={userHref(props.id)} title={`Open user ${props.id}`}>
      {props.id}
    </Link>
  );
}
