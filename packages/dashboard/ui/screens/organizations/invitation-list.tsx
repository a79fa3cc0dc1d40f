import { useApp } from "../../app-context.ts";
import { LoadMore } from "../../components/load-more.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { isPast } from "../../lib/format.ts";
import { usePagedList } from "../../lib/use-paged-list.ts";

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
 * its expiry. On a phone each invitation is a stacked card, not a row that
 * scrolls sideways.
 */
export function InvitationList(props: { orgId: string }) {
  const { api } = useApp();
  const list = usePagedList(
    async (cursor, signal) => {
      const page = await api.listInvitations(props.orgId, cursor, signal);
      return { items: page.invitations, nextCursor: page.nextCursor };
    },
    [props.orgId],
  );
  return (
    <LoadView loaded={list.first} label="Loading invitations…">
      {() =>
        list.items.length === 0 ? (
          <Empty title="No invitations" />
        ) : (
          <>
            <div class="table-wrap">
              <table class="table table-stack">
                <thead>
                  <tr>
                    <th scope="col">Invited</th>
                    <th scope="col">Status</th>
                    <th scope="col">Invited by</th>
                    <th scope="col">Expires</th>
                  </tr>
                </thead>
                <tbody>
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
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <LoadMore list={list} label="Load more invitations" />
          </>
        )
      }
    </LoadView>
  );
}
