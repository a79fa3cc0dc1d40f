import { useId } from "preact/hooks";
import { TextField } from "../../components/form-parts.tsx";

/** better-auth's built-in organization roles; an app may add its own. */
const BUILT_IN_ROLES = ["member", "admin", "owner"] as const;

/**
 * An organization role: the built-in ones offered as suggestions, any other
 * typed freely, since the capabilities do not list the app's own roles (the
 * server refuses an unknown role, naming the known ones, at this field).
 */
export function MemberRoleField(props: {
  value: string;
  onInput: (value: string) => void;
  problem?: string | undefined;
  autofocus?: boolean;
}) {
  const list = useId();
  return (
    <>
      <TextField
        label="Role"
        name="role"
        value={props.value}
        onInput={props.onInput}
        hint="member, admin or owner, or one of your app's own roles."
        problem={props.problem}
        autofocus={props.autofocus}
        list={list}
      />
      <datalist id={list}>
        {BUILT_IN_ROLES.map((role) => (
          <option key={role} value={role} />
        ))}
      </datalist>
    </>
  );
}
