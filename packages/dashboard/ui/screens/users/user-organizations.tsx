import { useApp } from "../../app-context.ts";
import { Section } from "../../components/section.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { Link } from "../../lib/navigation.tsx";
import { hrefOf } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";

/**
 * The organizations a user belongs to, with their role in each, each leading
 * to its organization; reloads after every change made in the drawer.
 *
 * @example <UserOrganizations userId={user.id} revision={revision} />
 */
export function UserOrganizations(props: { userId: string; revision: number }) {
  const { api } = useApp();
  const memberships = useLoad(
    (signal) => api.listUserOrganizations({ params: { id: props.userId }, signal }),
    [props.userId, props.revision],
  );
  return (
    <Section title="Organizations" count={memberships.data?.memberships.length}>
      <LoadView loaded={memberships} label="Loading organizations…">
        {(data) =>
          data.memberships.length === 0 ? (
            <Empty title="Not a member of any organization" />
          ) : (
            <ul class="list">
              {data.memberships.map((membership) => (
                <li key={membership.id} class="list-item">
                  <div class="list-main">
                    <div class="list-title">
                      <Link
                        href={hrefOf({
                          page: "organizations",
                          orgId: membership.organization.id,
                          tab: "members",
                        })}
                      >
                        {membership.organization.name}
                      </Link>
                    </div>
                    <div class="list-meta muted">
                      <span class="mono">{membership.organization.slug}</span> · {membership.role} ·
                      since <Time iso={membership.createdAt} />
                    </div>
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </LoadView>
    </Section>
  );
}
