import type { Caller } from "../../api/log-types.ts";
import { UserIdLink } from "../../components/user-id-link.tsx";
import { callerLabel } from "../../lib/log-format.ts";

/**
 * Who made a call, as {@link callerLabel} says it, with a user's id (the
 * caller, or the owner of the API key used) leading to that user.
 *
 * @example <CallerCell caller={record.caller} />
 */
export function CallerCell(props: { caller: Caller }) {
  const { caller } = props;
  if (caller.kind === "user") {
    return (
      <span>
        <UserIdLink id={caller.id} /> (user)
      </span>
    );
  }
  if (caller.kind === "apiKey" && caller.userId !== null) {
    return (
      <span>
        key {caller.id} of <UserIdLink id={caller.userId} />
      </span>
    );
  }
  return <span>{callerLabel(caller)}</span>;
}
