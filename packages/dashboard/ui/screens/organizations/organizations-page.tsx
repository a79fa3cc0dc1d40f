import { useEffect, useState } from "preact/hooks";
import type { OrganizationPage } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { Pager } from "../../components/pager.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { rangeLabel } from "../../lib/format.ts";
import { Link } from "../../lib/navigation.tsx";
import { hrefOf } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";
import { OrganizationDetail } from "./organization-detail.tsx";

const PAGE_SIZE = 25;
const SEARCH_DELAY_MS = 250;

/** Shown instead of the list when the organization plugin is off: a state, not an error. */
function NotEnabled() {
  return (
    <Empty title="Organizations are not enabled">
      This app's auth has no <code>organization()</code> plugin, so there is nothing to manage here.
      Add it to <code>createAuth</code> to see organizations, members and invitations.
    </Empty>
  );
}

/** Organizations, then one organization's members and invitations. */
export function OrganizationsPage(props: { orgId: string | null; tab: "members" | "invitations" }) {
  const { capabilities } = useApp();
  if (props.orgId !== null && capabilities.organizations) {
    return <OrganizationDetail orgId={props.orgId} tab={props.tab} />;
  }
  return (
    <div class="page">
      <header class="page-header">
        <div>
          <h1 class="page-title">Organizations</h1>
        </div>
      </header>
      {capabilities.organizations ? <OrganizationList /> : <NotEnabled />}
    </div>
  );
}

function OrganizationList() {
  const { api } = useApp();
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);

  useEffect(() => {
    const timer = setTimeout(() => {
      setQuery(search.trim());
      setCursors([undefined]);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const page = useLoad<OrganizationPage>(
    (signal) => api.listOrganizations({ search: query, limit: PAGE_SIZE, cursor }, signal),
    [query, cursor],
  );

  return (
    <>
      <search class="filters">
        <label class="field field-grow">
          <span class="sr-only">Search organizations</span>
          <input
            class="input input-search"
            type="search"
            placeholder="Search name or slug"
            value={search}
            onInput={(event) => setSearch(event.currentTarget.value)}
            spellcheck={false}
          />
        </label>
      </search>
      <LoadView loaded={page} label="Loading organizations…">
        {(data) => {
          if (!data.enabled) return <NotEnabled />;
          if (data.organizations.length === 0) {
            return (
              <Empty title={query ? "No organizations match" : "No organizations yet"}>
                {query ? null : "Organizations appear here once users create them."}
              </Empty>
            );
          }
          return (
            <>
              <div class="table-wrap">
                <table class="table">
                  <thead>
                    <tr>
                      <th scope="col">Organization</th>
                      <th scope="col">Members</th>
                      <th scope="col" class="hide-narrow">
                        Created
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.organizations.map((org) => (
                      <tr key={org.id}>
                        <td>
                          <Link
                            class="user-name"
                            href={hrefOf({ page: "organizations", orgId: org.id, tab: "members" })}
                          >
                            {org.name}
                          </Link>
                          <div class="muted mono small">{org.slug}</div>
                        </td>
                        <td>{org.memberCount}</td>
                        <td class="hide-narrow">
                          <Time iso={org.createdAt} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager
                label={rangeLabel(
                  (cursors.length - 1) * PAGE_SIZE,
                  data.organizations.length,
                  data.total,
                )}
                hasPrevious={cursors.length > 1}
                hasNext={data.nextCursor !== null}
                busy={page.loading}
                onPrevious={() => setCursors((stack) => stack.slice(0, -1))}
                onNext={() => setCursors((stack) => [...stack, data.nextCursor ?? undefined])}
              />
            </>
          );
        }}
      </LoadView>
    </>
  );
}
