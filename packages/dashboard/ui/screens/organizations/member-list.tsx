import { useRef, useState } from "preact/hooks";
import type { Member } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { LoadMore } from "../../components/load-more.tsx";
import { RowsTable } from "../../components/rows-table.tsx";
import { Section } from "../../components/section.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { useToast } from "../../components/toasts.tsx";
import { Link } from "../../lib/navigation.tsx";
import { userHref } from "../../lib/routes.ts";
import { usePagedList } from "../../lib/use-paged-list.ts";
import { AddMemberDialog } from "./add-member-dialog.tsx";
import { MemberRoleDialog } from "./member-role-dialog.tsx";

type Open = { kind: "add" } | { kind: "role" | "remove"; member: Member } | null;

/**
 * An organization's members, each linking to that user's drawer, with
 * adding a user, changing a member's role and removing a member. After a
 * removal focus lands on the list's heading, as the member's row is gone.
 */
export function MemberList(props: { orgId: string; onChanged: () => void }) {
  const { api } = useApp();
  const notify = useToast();
  const { orgId } = props;
  const [open, setOpen] = useState<Open>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const list = usePagedList(
    async (cursor, signal) => {
      const page = await api.listMembers({ params: { id: orgId }, query: { cursor }, signal });
      return { items: page.members, nextCursor: page.nextCursor };
    },
    [orgId],
  );
  const changed = () => {
    list.first.reload();
    props.onChanged();
  };
  const close = () => setOpen(null);

  return (
    <Section
      title="Members"
      headingRef={heading}
      actions={
        <button type="button" class="btn btn-small" onClick={() => setOpen({ kind: "add" })}>
          Add member
        </button>
      }
    >
      <LoadView loaded={list.first} label="Loading members…">
        {() =>
          list.items.length === 0 ? (
            <Empty title="No members" />
          ) : (
            <>
              <RowsTable columns={["Member", "Role", "Joined"]} actions>
                {list.items.map((member) => (
                  <tr key={member.id}>
                    <td>
                      <Link class="user-name" href={userHref(member.user.id)}>
                        {member.user.name || member.user.email}
                      </Link>
                      <div class="muted small">{member.user.email}</div>
                    </td>
                    <td data-label="Role">
                      <span class={member.role === "owner" ? "badge badge-accent" : "badge"}>
                        {member.role}
                      </span>
                    </td>
                    <td data-label="Joined">
                      <Time iso={member.createdAt} />
                    </td>
                    <td class="cell-actions">
                      <button
                        type="button"
                        class="btn btn-small"
                        aria-label={`Change role of ${member.user.email}`}
                        onClick={() => setOpen({ kind: "role", member })}
                      >
                        Role
                      </button>
                      <button
                        type="button"
                        class="btn btn-small btn-danger-ghost"
                        aria-label={`Remove ${member.user.email}`}
                        onClick={() => setOpen({ kind: "remove", member })}
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                ))}
              </RowsTable>
              <LoadMore list={list} label="Load more members" />
            </>
          )
        }
      </LoadView>
      {open?.kind === "add" ? (
        <AddMemberDialog orgId={orgId} onClose={close} onDone={changed} />
      ) : null}
      {open?.kind === "role" ? (
        <MemberRoleDialog orgId={orgId} member={open.member} onClose={close} onDone={changed} />
      ) : null}
      {open?.kind === "remove" ? (
        <ConfirmDialog
          title={`Remove ${open.member.user.email}?`}
          confirmLabel="Remove member"
          danger
          onClose={close}
          focusAfter={() => heading.current}
          onConfirm={async () => {
            await api.removeMember({ params: { id: orgId, memberId: open.member.id } });
            notify(`Removed ${open.member.user.email}`);
            changed();
          }}
        >
          They lose access to this organization and its teams. Their account stays.
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}
