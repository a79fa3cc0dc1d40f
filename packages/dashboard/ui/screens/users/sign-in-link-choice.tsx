import type { SignInLinkKind, SignInLinkOutcome } from "../../api/types.ts";

/** What each link kind is called in a choice: what the user gets, in plain words. */
const CHOICE_LABELS: Record<SignInLinkKind, string> = {
  "magic-link": "Send a magic link",
  "password-setup": "Send a link to set a password",
};

/** What each link kind is called in a sentence ("emailed … to ann@example.com"). */
const SENT_NAMES: Record<SignInLinkKind, string> = {
  "magic-link": "a magic link",
  "password-setup": "a link to set a password",
};

/**
 * Radio buttons for the sign-in links the app can send (`capabilities.signInLinks`),
 * plus "none" when `allowNone` is set, so the operator chooses what the user gets
 * by email.
 */
export function SignInLinkChoice(props: {
  legend: string;
  kinds: readonly SignInLinkKind[];
  value: SignInLinkKind | "none";
  onChange: (value: SignInLinkKind | "none") => void;
  allowNone?: boolean;
}) {
  const options: (SignInLinkKind | "none")[] = [
    ...props.kinds,
    ...(props.allowNone ? ["none" as const] : []),
  ];
  return (
    <fieldset class="choices">
      <legend class="field-label">{props.legend}</legend>
      {options.map((option) => (
        <label key={option} class="choice">
          <input
            type="radio"
            name="sign-in-link"
            value={option}
            checked={props.value === option}
            onChange={() => props.onChange(option)}
          />
          <span>{option === "none" ? "Send nothing" : CHOICE_LABELS[option]}</span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The toast text for a link the server tried to send: what went to whom, or
 * why it did not (the user exists either way; the drawer can send it again).
 */
export function sentMessage(outcome: SignInLinkOutcome): string {
  return outcome.sent
    ? `Emailed ${SENT_NAMES[outcome.kind]} to ${outcome.sentTo}`
    : `Could not email ${SENT_NAMES[outcome.kind]} to ${outcome.sentTo}: ${outcome.error.message} Use "Send sign-in link" in their drawer to try again.`;
}
