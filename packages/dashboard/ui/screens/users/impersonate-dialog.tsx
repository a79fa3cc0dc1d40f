import { useState } from "preact/hooks";
import type { Impersonation, ImpersonationLink, User } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { AuditReasonField } from "../../components/form-parts.tsx";
import { ErrorNotice } from "../../components/states.tsx";
import { useSubmit } from "../../lib/use-submit.ts";
import { ImpersonationOpened } from "./impersonation-opened.tsx";
import { ImpersonationToken } from "./impersonation-token.tsx";

/** Up to the server's default (and usual maximum) of one hour: impersonation should be brief. */
const DURATIONS: readonly { seconds: number; label: string }[] = [
  { seconds: 15 * 60, label: "15 minutes" },
  { seconds: 30 * 60, label: "30 minutes" },
  { seconds: 3600, label: "1 hour" },
];

type Started =
  | { kind: "link"; link: ImpersonationLink; label: string }
  | { kind: "token"; impersonation: Impersonation };

/**
 * Starts an impersonation, one of two ways. "Open the app as this user"
 * (the default) asks for a one-time link and opens it in a new tab, which
 * signs that tab's browser in as the user (see {@link ImpersonationOpened});
 * "Get a token for API use" starts the session at once and shows its token
 * (see {@link ImpersonationToken}). Either way the session is bounded,
 * recorded with the operator's name and can be revoked like any other.
 */
export function ImpersonateDialog(props: { user: User; onClose: () => void; onDone: () => void }) {
  const { api } = useApp();
  const { user } = props;
  const [reason, setReason] = useState("");
  const [seconds, setSeconds] = useState(3600);
  const [started, setStarted] = useState<Started | null>(null);
  const body = () => {
    const trimmed = reason.trim();
    return { durationSeconds: seconds, ...(trimmed === "" ? {} : { reason: trimmed }) };
  };
  const openApp = useSubmit(async () => {
    const link = await api.impersonationLink({ params: { id: user.id }, body: body() });
    // noopener: the app's tab gets no handle on the dashboard (and window.open answers null).
    window.open(link.url, "_blank", "noopener");
    const label = DURATIONS.find((option) => option.seconds === seconds)?.label ?? "";
    setStarted({ kind: "link", link, label });
    props.onDone();
  });
  const getToken = useSubmit(async () => {
    setStarted({
      kind: "token",
      impersonation: await api.impersonate({ params: { id: user.id }, body: body() }),
    });
    props.onDone();
  });

  if (started?.kind === "token") {
    return (
      <ImpersonationToken
        user={user}
        impersonation={started.impersonation}
        onClose={props.onClose}
      />
    );
  }
  if (started?.kind === "link") {
    return (
      <ImpersonationOpened
        user={user}
        link={started.link}
        duration={started.label}
        onClose={props.onClose}
      />
    );
  }

  const busy = openApp.busy || getToken.busy;
  const error = openApp.error ?? getToken.error;
  return (
    <Dialog title={`Impersonate ${user.email}?`} onClose={props.onClose}>
      <form class="stack" onSubmit={openApp.submit}>
        <p class="muted">
          This starts a real session as this user, for the time you choose. It is recorded under
          your operator name.
        </p>
        <AuditReasonField value={reason} onInput={setReason} />
        <label class="field">
          <span class="field-label">Lasts</span>
          <select
            class="input"
            value={String(seconds)}
            onChange={(event) => setSeconds(Number(event.currentTarget.value))}
          >
            {DURATIONS.map((option) => (
              <option key={option.seconds} value={String(option.seconds)}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <p class="small">
          <strong>Open the app as this user</strong> opens the app in a new tab, signed in as{" "}
          {user.email}. It replaces any session this browser has on the app, yours included.{" "}
          <strong>Get a token for API use</strong> shows the session's token instead, for calls from
          a terminal or a script.
        </p>
        {error ? <ErrorNotice error={error} compact /> : null}
        <div class="actions">
          <button type="button" class="btn" onClick={props.onClose}>
            Cancel
          </button>
          <button type="button" class="btn" disabled={busy} onClick={getToken.submit}>
            {getToken.busy ? "Starting…" : "Get a token for API use"}
          </button>
          <button type="submit" class="btn btn-primary" disabled={busy}>
            {openApp.busy ? "Opening…" : "Open the app as this user"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
