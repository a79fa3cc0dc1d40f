import { useRef, useState } from "preact/hooks";
import type { Invitation } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { LoadMore } from "../../components/load-more.tsx";
import { RowsTable } from "../../components/rows-table.tsx";
import { Section } from "../../components/section.tsx";
import { Empty, ErrorNotice, LoadView } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { useToast } from "../../components/toasts.tsx";
import { isPast } from "../../lib/format.ts";
import { usePagedList } from "../../lib/use-paged-list.ts";
import { InviteDialog } from "./invite-dialog.tsx";
import { NotEmailedNote } from "./not-emailed-note.tsx";

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

const STATUS_TONE: Record<string, string> = {
  pending: "badge badge-warn",
  accepted: "badge badge-ok",
  rejected: "badge badge-danger",
  canceled: "badge",
};

/**
 * An organization's invitations: who was invited, as what, by whom, until
 * when. An answered invitation shows its answer where a pending one shows
 * its expiry, and a pending one can be sent again (renewing it) or
 * canceled. On a phone each invitation is a stacked card, not a row that
 * scrolls sideways.
 */
export function InvitationList(props: { orgId: string }) {
  const { api } = useApp();
  const notify = useToast();
  const { orgId } = props;
  const [inviting, setInviting] = useState(false);
  const [canceling, setCanceling] = useState<Invitation | null>(null);
  const [resent, setResent] = useState<{ email: string; emailed: boolean } | null>(null);
  const [resendError, setResendError] = useState<Error | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const list = usePagedList(
    async (cursor, signal) => {
      const page = await api.listInvitations({ params: { id: orgId }, query: { cursor }, signal });
      return { items: page.invitations, nextCursor: page.nextCursor };
    },
    [orgId],
  );
  const resend = async (invitation: Invitation) => {
    setResent(null);
    setResendError(null);
    try {
      const { emailed } = await api.resendInvitation({
        params: { id: orgId, invitationId: invitation.id },
      });
      if (emailed) notify(`Invitation sent again to ${invitation.email}`);
      setResent({ email: invitation.email, emailed });
      list.first.reload();
    } catch (error) {
      setResendError(error instanceof Error ? error : new Error(String(error)));
    }
  };
  return (
    <Section
      title="Invitations"
      headingRef={heading}
      actions={
        <button type="button" class="btn btn-small" onClick={() => setInviting(true)}>
          Invite by email
        </button>
      }
    >
      {resent !== null && !resent.emailed ? (
        <div class="stack">
          <p class="muted">The invitation of {resent.email} was renewed.</p>
          <NotEmailedNote email={resent.email} />
        </div>
      ) : null}
      {resendError ? <ErrorNotice error={resendError} compact /> : null}
      <LoadView loaded={list.first} label="Loading invitations…">
        {() =>
          list.items.length === 0 ? (
            <Empty title="No invitations" />
          ) : (
            <>
              <RowsTable columns={["Invited", "Status", "Invited by", "Expires"]} actions>
                {list.items.map((invitation) => {
                  const lapsed = invitation.status === "pending" && isPast(invitation.expiresAt);
                  return (
                    <tr key={invitation.id}>
                      <td class="cell-wrap">
                        {invitation.email}
                        <div class="muted small">as {invitation.role ?? "member"}</div>
                      </td>
                      <td data-label="Status">
                        <span
                          class={lapsed ? "badge" : (STATUS_TONE[invitation.status] ?? "badge")}
                        >
                          {lapsed ? "expired" : invitation.status}
                        </span>
                      </td>
                      <td data-label="Invited by">
                        {invitation.inviter?.email ?? <span class="muted">—</span>}
                      </td>
                      <td data-label="Expires">
                        {invitation.status === "pending" ? (
                          <Time iso={invitation.expiresAt} />
                        ) : (
                          <span class="muted">{capitalized(invitation.status)}</span>
                        )}
                      </td>
                      <td class="cell-actions">
                        {invitation.status === "pending" ? (
                          <>
                            <button
                              type="button"
                              class="btn btn-small"
                              aria-label={`Resend the invitation of ${invitation.email}`}
                              onClick={() => resend(invitation)}
                            >
                              Resend
                            </button>
                            <button
                              type="button"
                              class="btn btn-small btn-danger-ghost"
                              aria-label={`Cancel the invitation of ${invitation.email}`}
                              onClick={() => setCanceling(invitation)}
                            >
                              Cancel
                            </button>
                          </>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </RowsTable>
              <LoadMore list={list} label="Load more invitations" />
            </>
          )
        }
      </LoadView>
      {inviting ? (
        <InviteDialog orgId={orgId} onClose={() => setInviting(false)} onDone={list.first.reload} />
      ) : null}
      {canceling !== null ? (
        <ConfirmDialog
          title={`Cancel the invitation of ${canceling.email}?`}
          confirmLabel="Cancel invitation"
          danger
          onClose={() => setCanceling(null)}
          focusAfter={() => heading.current}
          onConfirm={async () => {
            await api.cancelInvitation({ params: { id: orgId, invitationId: canceling.id } });
            notify(`Canceled the invitation of ${canceling.email}`);
            list.first.reload();
          }}
        >
          The link they were sent stops working. You can invite them again later.
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}
