import { useRef, useState } from "preact/hooks";
import type { Session } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Section } from "../../components/section.tsx";
import { Empty } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { useToast } from "../../components/toasts.tsx";
import { describeUserAgent, isPast } from "../../lib/format.ts";

/**
 * The user's sessions (never their tokens): device, address, age, expiry,
 * and whether an operator is impersonating. Revoke one (which also ends an
 * impersonation early) or all.
 */
export function UserSessions(props: {
  userId: string;
  sessions: Session[];
  onChanged: () => void;
}) {
  const { api } = useApp();
  const notify = useToast();
  const { userId, sessions, onChanged } = props;
  const [revoking, setRevoking] = useState<Session | "all" | null>(null);
  const close = () => setRevoking(null);
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <Section
      title="Sessions"
      count={sessions.length}
      headingRef={heading}
      actions={
        sessions.length > 0 ? (
          <button type="button" class="btn btn-small" onClick={() => setRevoking("all")}>
            Revoke all
          </button>
        ) : null
      }
    >
      {sessions.length === 0 ? (
        <Empty title="No active sessions" />
      ) : (
        <ul class="list">
          {sessions.map((session) => (
            <li key={session.id} class="list-item">
              <div class="list-main">
                <div class="list-title">
                  {describeUserAgent(session.userAgent)}
                  {session.impersonatedBy !== null ? (
                    <span class="badge badge-warn">Impersonated by {session.impersonatedBy}</span>
                  ) : null}
                  {isPast(session.expiresAt) ? <span class="badge">Expired</span> : null}
                </div>
                <div class="list-meta muted">
                  {session.ipAddress ?? "no IP"} · started <Time iso={session.createdAt} /> ·
                  expires <Time iso={session.expiresAt} />
                </div>
              </div>
              <button
                type="button"
                class="btn btn-small"
                onClick={() => setRevoking(session)}
                aria-label={`Revoke session ${describeUserAgent(session.userAgent)} from ${session.ipAddress ?? "no IP"}`}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {revoking === "all" ? (
        <ConfirmDialog
          title="Revoke all sessions?"
          confirmLabel="Revoke all"
          danger
          onClose={close}
          focusAfter={() => heading.current}
          onConfirm={async () => {
            const { revoked } = await api.revokeSessions({ params: { id: userId } });
            notify(`Revoked ${revoked} session${revoked === 1 ? "" : "s"}`);
            onChanged();
          }}
        >
          The user is signed out on every device, including any impersonation session.
        </ConfirmDialog>
      ) : revoking !== null ? (
        <ConfirmDialog
          title="Revoke this session?"
          confirmLabel="Revoke session"
          danger
          onClose={close}
          focusAfter={() => heading.current}
          onConfirm={async () => {
            await api.revokeSession({ params: { id: userId, sessionId: revoking.id } });
            notify("Session revoked");
            onChanged();
          }}
        >
          {describeUserAgent(revoking.userAgent)} ({revoking.ipAddress ?? "no IP"}) is signed out.
          {revoking.impersonatedBy !== null ? " This ends the impersonation." : ""}
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}
