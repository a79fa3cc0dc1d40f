import type { RunAs } from "../api/data.ts";

/** Whom a run or a try acts as: an identity the admin API resolves, or a pasted bearer token. */
export type ActAs = RunAs["kind"] | "token";

/** The picker's state: the choice, and the user or token it needs. */
export interface ActAsChoice {
  kind: ActAs;
  /** A user's id or email, for `kind: "user"`. */
  user: string;
  /** A bearer token (an API key), for `kind: "token"`. */
  token: string;
}

const LABELS: Record<ActAs, string> = {
  user: "A user…",
  anonymous: "Anonymous",
  service: "Service",
  token: "A bearer token (API key)…",
};

/**
 * The identity that Functions' "Run" and the API page's "Try it" act as: a user (by
 * id or email; the admin API resolves them and says when there is none),
 * anonymous, the service identity, and where `kinds` offers it, a pasted
 * bearer token (an organization's API key). One picker, so both screens
 * act as the same identities the same way.
 *
 * @example <RunAsPicker choice={choice} onChange={setChoice} kinds={["anonymous", "user", "service", "token"]} />
 */
export function RunAsPicker(props: {
  choice: ActAsChoice;
  onChange: (choice: ActAsChoice) => void;
  kinds: readonly ActAs[];
  label: string;
}) {
  const { choice, onChange } = props;
  return (
    <>
      <label class="field">
        <span class="field-label">{props.label}</span>
        <select
          class="input"
          value={choice.kind}
          onChange={(event) => onChange({ ...choice, kind: event.currentTarget.value as ActAs })}
        >
          {props.kinds.map((kind) => (
            <option key={kind} value={kind}>
              {LABELS[kind]}
            </option>
          ))}
        </select>
      </label>
      {choice.kind === "user" ? (
        <label class="field field-grow">
          <span class="field-label">User id or email</span>
          <input
            class="input"
            value={choice.user}
            required
            onInput={(event) => onChange({ ...choice, user: event.currentTarget.value })}
            autocomplete="off"
            spellcheck={false}
          />
        </label>
      ) : null}
      {choice.kind === "token" ? (
        <label class="field field-grow">
          <span class="field-label">Bearer token</span>
          <input
            class="input mono"
            type="password"
            value={choice.token}
            required
            onInput={(event) => onChange({ ...choice, token: event.currentTarget.value })}
            autocomplete="off"
          />
        </label>
      ) : null}
    </>
  );
}

/**
 * The admin API's `as` for a choice that names an identity; null for a
 * bearer token, which goes to the app's own route instead.
 *
 * @example runAsOf({ kind: "user", user: " ann@example.com ", token: "" }) // { kind: "user", userId: "ann@example.com" }
 */
export function runAsOf(choice: ActAsChoice): RunAs | null {
  if (choice.kind === "token") return null;
  return choice.kind === "user"
    ? { kind: "user", userId: choice.user.trim() }
    : { kind: choice.kind };
}

/** "ann@example.com", "anonymous", "the service", "a bearer token": whom a confirmation names. */
export function actAsName(choice: ActAsChoice): string {
  if (choice.kind === "user") return choice.user.trim() || "the user";
  if (choice.kind === "token") return "a bearer token";
  return choice.kind === "service" ? "the service" : "anonymous";
}
