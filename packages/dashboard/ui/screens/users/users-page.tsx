import { useRef, useState } from "preact/hooks";
import type { UserPage } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { lazyComponent } from "../../components/lazy.tsx";
import { Pager } from "../../components/pager.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { rangeLabel } from "../../lib/format.ts";
import { navigate } from "../../lib/navigation.tsx";
import {
  DEFAULT_USER_FILTERS,
  type PagePosition,
  type UserFilters,
  userHref,
} from "../../lib/routes.ts";
import { useCursorPages } from "../../lib/use-cursor-pages.ts";
import { useLoad } from "../../lib/use-load.ts";
import { CreateUserDialog } from "./create-user-dialog.tsx";
import { UserDrawer } from "./user-drawer.tsx";
import { UserFiltersBar } from "./user-filters.tsx";
import { UsersTable } from "./users-table.tsx";

// Export and import are occasional jobs: their code is fetched when first opened.
const ExportDialog = lazyComponent(() =>
  import("./export-dialog.tsx").then((module) => module.ExportDialog),
);
const ImportDialog = lazyComponent(() =>
  import("./import-dialog.tsx").then((module) => module.ImportDialog),
);

/** Users per page. */
const PAGE_SIZE = 25;

/**
 * The users list: filters and page in the URL, cursor pages, the total,
 * and the drawer of the user the URL names.
 */
export function UsersPage(props: {
  userId: string | null;
  filters: UserFilters;
  at: PagePosition;
}) {
  const { api, capabilities } = useApp();
  const { filters, userId, at } = props;
  const [creating, setCreating] = useState(false);
  const [transfer, setTransfer] = useState<"export" | "import" | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const deleted = useRef(false);
  const filterKey = JSON.stringify(filters);
  const pages = useCursorPages(filterKey, at, PAGE_SIZE, (to) =>
    navigate(userHref(userId, filters, to), { replace: true }),
  );
  const cursor = pages.cursor;

  const page = useLoad<UserPage>(
    (signal) =>
      api.listUsers({
        query: {
          search: filters.search.trim(),
          role: filters.role,
          banned: filters.banned === "" ? undefined : filters.banned === "true",
          sort: filters.sort,
          order: filters.order,
          limit: PAGE_SIZE,
          cursor,
        },
        signal,
      }),
    [filterKey, cursor],
  );

  const setFilters = (next: UserFilters) => navigate(userHref(userId, next), { replace: true });
  const filtered = filters.search !== "" || filters.role !== "" || filters.banned !== "";

  return (
    <div class="page">
      <header class="page-header">
        <div>
          <h1 class="page-title" ref={heading} tabIndex={-1}>
            Users
          </h1>
          <p class="page-subtitle" aria-live="polite">
            {page.data
              ? `${page.data.total.toLocaleString("en")} ${filtered ? "matching" : "in total"}`
              : " "}
          </p>
        </div>
        <div class="page-actions">
          <button type="button" class="btn" onClick={() => setTransfer("export")}>
            Export
          </button>
          {capabilities.userActions ? (
            <button type="button" class="btn" onClick={() => setTransfer("import")}>
              Import
            </button>
          ) : null}
          {capabilities.userActions ? (
            <button type="button" class="btn btn-primary" onClick={() => setCreating(true)}>
              New user
            </button>
          ) : null}
        </div>
      </header>
      <UserFiltersBar filters={filters} onChange={setFilters} />
      <div class={page.loading && page.data ? "refreshing" : undefined}>
        <LoadView loaded={page} label="Loading users…">
          {(data) =>
            data.users.length === 0 ? (
              <Empty title={filtered ? "No users match these filters" : "No users yet"}>
                {filtered ? (
                  <button
                    type="button"
                    class="btn btn-small"
                    onClick={() => setFilters(DEFAULT_USER_FILTERS)}
                  >
                    Clear filters
                  </button>
                ) : (
                  "Users appear here once they sign up."
                )}
              </Empty>
            ) : (
              <>
                <UsersTable
                  users={data.users}
                  hrefOf={(id) => userHref(id, filters, at)}
                  showRole={capabilities.userActions}
                />
                <Pager
                  label={rangeLabel(pages.offset, data.users.length, data.total, data.totalIsExact)}
                  previousLabel={pages.previousLabel}
                  hasPrevious={pages.hasPrevious}
                  hasNext={data.nextCursor !== null}
                  busy={page.loading}
                  onPrevious={pages.previous}
                  onNext={() => data.nextCursor !== null && pages.next(data.nextCursor)}
                />
              </>
            )
          }
        </LoadView>
      </div>
      {userId !== null ? (
        <UserDrawer
          userId={userId}
          onClose={() => {
            deleted.current = false;
            navigate(userHref(null, filters, at));
          }}
          onChanged={page.reload}
          onDeleted={() => {
            deleted.current = true;
            page.reload();
            navigate(userHref(null, filters, at));
          }}
          returnFocus={() => (deleted.current ? heading.current : null)}
        />
      ) : null}
      {transfer === "export" ? (
        <ExportDialog
          filters={filters}
          total={page.data?.totalIsExact ? page.data.total : undefined}
          onClose={() => setTransfer(null)}
        />
      ) : null}
      {transfer === "import" ? (
        <ImportDialog onClose={() => setTransfer(null)} onImported={page.reload} />
      ) : null}
      {creating ? (
        <CreateUserDialog
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            page.reload();
            navigate(userHref(id, filters, at));
          }}
        />
      ) : null}
    </div>
  );
}
