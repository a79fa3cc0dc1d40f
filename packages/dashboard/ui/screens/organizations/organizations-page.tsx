import { useEffect, useState } from "preact/hooks";
import type { OrganizationPage } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { PageHeader } from "../../components/page-header.tsx";
import { Pager } from "../../components/pager.tsx";
import { RowsTable } from "../../components/rows-table.tsx";
import { SearchField } from "../../components/search-field.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { rangeLabel } from "../../lib/format.ts";
import { Link, navigate } from "../../lib/navigation.tsx";
import { FIRST_PAGE, hrefOf, type PagePosition } from "../../lib/routes.ts";
import { useCursorPages } from "../../lib/use-cursor-pages.ts";
import { useDraft } from "../../lib/use-draft.ts";
import { useLoad } from "../../lib/use-load.ts";
import { CreateOrganizationDialog } from "./create-organization-dialog.tsx";
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

/** Organizations (search and page in the URL), then one organization's members and invitations. */
export function OrganizationsPage(props: {
  orgId: string | null;
  tab: "members" | "invitations";
  search: string;
  at: PagePosition;
}) {
  const { capabilities } = useApp();
  const [creating, setCreating] = useState(false);
  if (props.orgId !== null && capabilities.organizations) {
    return <OrganizationDetail orgId={props.orgId} tab={props.tab} />;
  }
  return (
    <div class="page">
      <PageHeader title="Organizations">
        {capabilities.organizations ? (
          <button type="button" class="btn btn-primary" onClick={() => setCreating(true)}>
            New organization
          </button>
        ) : null}
      </PageHeader>
      {creating ? (
        <CreateOrganizationDialog
          onClose={() => setCreating(false)}
          onCreated={(organization) => {
            setCreating(false);
            navigate(hrefOf({ page: "organizations", orgId: organization.id, tab: "members" }));
          }}
        />
      ) : null}
      {capabilities.organizations ? (
        <OrganizationList query={props.search} at={props.at} />
      ) : (
        <NotEnabled />
      )}
    </div>
  );
}

function OrganizationList(props: { query: string; at: PagePosition }) {
  const { api } = useApp();
  const { query, at } = props;
  const [search, setSearch] = useDraft(query);
  const go = (search: string, to: PagePosition) =>
    navigate(hrefOf({ page: "organizations", orgId: null, tab: "members", search, at: to }), {
      replace: true,
    });
  const pages = useCursorPages(query, at, PAGE_SIZE, (to) => go(query, to));
  const cursor = pages.cursor;

  useEffect(() => {
    if (search.trim() === query) return;
    const timer = setTimeout(() => go(search.trim(), FIRST_PAGE), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, query]);

  const page = useLoad<OrganizationPage>(
    (signal) =>
      api.listOrganizations({ query: { search: query, limit: PAGE_SIZE, cursor }, signal }),
    [query, cursor],
  );

  return (
    <>
      <search class="filters">
        <SearchField
          label="Search organizations"
          placeholder="Search name or slug"
          value={search}
          onInput={setSearch}
          grow
          noSpellcheck
        />
      </search>
      <LoadView loaded={page} label="Loading organizations…">
        {(data) => {
          if (!data.enabled) return <NotEnabled />;
          if (data.organizations.length === 0) {
            return (
              <Empty title={query ? "No organizations match" : "No organizations yet"}>
                {query ? null : "Organizations appear here once users or you create them."}
              </Empty>
            );
          }
          return (
            <>
              <RowsTable
                columns={["Organization", "Members", { label: "Created", class: "hide-narrow" }]}
                stack={false}
              >
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
              </RowsTable>
              <Pager
                label={rangeLabel(pages.offset, data.organizations.length, data.total)}
                previousLabel={pages.previousLabel}
                hasPrevious={pages.hasPrevious}
                hasNext={data.nextCursor !== null}
                busy={page.loading}
                onPrevious={pages.previous}
                onNext={() => data.nextCursor !== null && pages.next(data.nextCursor)}
              />
            </>
          );
        }}
      </LoadView>
    </>
  );
}
