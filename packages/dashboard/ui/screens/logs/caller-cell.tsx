import type { Caller } from "../../api/log-types.ts";
import { useApp } from "../../app-context.ts";
import { UserIdLink } from "../../components/user-id-link.tsx";
import { UserLink } from "../../components/user-link.tsx";
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
 * (a call's details) looks the user up and shows their name and email.
 *
 * @example <CallerCell caller={record.caller} />
 */
export function CallerCell(props: { caller: Caller; named?: boolean }) {
  const { caller } = props;
  const User = props.named === true ? UserLookupLink : UserIdLink;
  if (caller.kind === "user") {
    return (
      <span>
        <User id={caller.id} /> (user)
      </span>
    );
  }
  if (caller.kind === "apiKey" && caller.userId !== null) {
    return (
      <span>
        key {caller.id} of <User id={caller.userId} />
      </span>
    );
  }
  return <span>{callerLabel(caller)}</span>;
}
