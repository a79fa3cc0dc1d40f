import { useApp } from "../../app-context.ts";
import { LoadMore } from "../../components/load-more.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { Link } from "../../lib/navigation.tsx";
import { userHref } from "../../lib/routes.ts";
import { usePagedList } from "../../lib/use-paged-list.ts";

/** An organization's members; each links to that user's drawer. */
export function MemberList(props: { orgId: string }) {
  const { api } = useApp();
  const list = usePagedList(
    async (cursor, signal) => {
      const page = await api.listMembers(props.orgId, cursor, signal);
      return { items: page.members, nextCursor: page.nextCursor };
    },
    [props.orgId],
  );
  return (
    <LoadView loaded={list.first} label="Loading members…">
      {() =>
        list.items.length === 0 ? (
          <Empty title="No members" />
        ) : (
          <>
            <div class="table-wrap">
              <table class="table">
                <thead>
                  <tr>
                    <th scope="col">Member</th>
                    <th scope="col">Role</th>
                    <th scope="col" class="hide-narrow">
                      Joined
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((member) => (
                    <tr key={member.id}>
                      <td>
                        <Link class="user-name" href={userHref(member.user.id)}>
                          {member.user.name || member.user.email}
                        </Link>
                        <div class="muted small">{member.user.email}</div>
                      </td>
                      <td>
                        <span class={member.role === "owner" ? "badge badge-accent" : "badge"}>
                          {member.role}
                        </span>
                      </td>
                      <td class="hide-narrow">
                        <Time iso={member.createdAt} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <LoadMore list={list} label="Load more members" />
          </>
        )
      }
    </LoadView>
  );
}
