import type { Caller } from "../../api/log-types.ts";
import { useApp } from "../../app-context.ts";
import { UserIdLink } from "../../components/user-id-link.tsx";
import { UserLink, type UserName } from "../../components/user-link.tsx";
import { callerLabel } from "../../lib/log-format.ts";
import { useLoad } from "../../lib/use-load.ts";

/**
 * A user's id looked up and shown by name and email (a call's details): the
 * id until the answer arrives, and if the lookup fails.
 */
function UserLookupLink(props: { id: string }) {
  const { api } = useApp();
  const detail = useLoad((signal) => api.getUser({ params: { id: props.id }, signal }), [props.id]);
  return <UserLink id={props.id} user={detail.data?.user ?? null} />;
}

/**
 * Who made a call, as {@link callerLabel} says it, with a user's id (the
 * caller, or the owner of the API key used) leading to that user. `named`
 * (a call's details) looks the user up and shows their name and email;
 * `names` (the Logs list, looked up for the whole page at once) shows the
 * name, with the email on hover; without either, the id is shown.
 *
 * @example <CallerCell caller={record.caller} names={useCallerNames(records)} />
 */
export function CallerCell(props: {
  caller: Caller;
  named?: boolean;
  names?: ReadonlyMap<string, UserName>;
}) {
  const { caller, names } = props;
  const user = (id: string) =>
    props.named === true ? (
      <UserLookupLink id={id} />
    ) : names !== undefined ? (
      <UserLink id={id} user={names.get(id) ?? null} short />
    ) : (
      <UserIdLink id={id} />
    );
  if (caller.kind === "user") return <span class="caller">{user(caller.id)} (user)</span>;
  if (caller.kind === "apiKey" && caller.userId !== null) {
    return (
      <span class="caller">
        key {caller.id} of {user(caller.userId)}
      </span>
    );
  }
  return <span>{callerLabel(caller)}</span>;
}
