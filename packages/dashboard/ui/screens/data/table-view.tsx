import { useCallback, useState } from "preact/hooks";
import type { BrowseQuery, StudioDocument, TableInfo } from "../../api/data.ts";
import { useDataApi } from "../../api/use-data-api.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Empty, ErrorNotice, Loading } from "../../components/states.tsx";
import { useToast } from "../../components/toasts.tsx";
import { useLeaveGuard } from "../../lib/navigation.tsx";
import { type DataBrowse, parseRoute } from "../../lib/routes.ts";
import { BrowseControls } from "./browse-controls.tsx";
import { DocumentDrawer } from "./document-drawer.tsx";
import { DocumentsGrid } from "./documents-grid.tsx";
import { PlanLine } from "./plan-line.tsx";
import { ReviewDialog } from "./review-dialog.tsx";
import { type StagedChange, stage } from "./staged-changes.ts";
import { useDocumentPages } from "./use-document-pages.ts";
import { ViewerBanner } from "./viewer-banner.tsx";

/** The API's browse query from the URL's (the same names; `""` left out). */
function queryOf(browse: DataBrowse): BrowseQuery {
  const query: BrowseQuery = {};
  if (browse.index !== "") query.index = browse.index;
  if (browse.eq !== "") query.eq = browse.eq;
  if (browse.gte !== "") query.gte = browse.gte;
  if (browse.lte !== "") query.lte = browse.lte;
  if (browse.order !== "") query.order = browse.order;
  if (browse.filter !== "") query.filter = browse.filter;
  if (browse.search !== "") query.search = browse.search;
  if (browse.as !== "") query.asUser = browse.as;
  return query;
}

/** Which document the drawer shows: a stored one, a new one, or one whose staged change was refused. */
type Editing = { document: StudioDocument | null; change?: StagedChange } | null;

/**
 * One table of one shard: the browse controls, whom it is viewed as (always
 * said), the grid of documents, and the operator's edits: staged from the
 * document drawer, reviewed together before they are applied; a selection
 * deleted in bulk after a typed confirmation.
 */
export function TableView(props: {
  shard: string;
  table: TableInfo;
  browse: DataBrowse;
  onChanged: () => void;
}) {
  const { shard, table, browse } = props;
  const data = useDataApi();
  const notify = useToast();
  const pages = useDocumentPages(shard, table.name, queryOf(browse));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [staged, setStaged] = useState<StagedChange[]>([]);
  const [editing, setEditing] = useState<Editing>(null);
  const [reviewing, setReviewing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // Staged edits live in this view: leaving the table (another tab, another page) would drop them.
  const pending = staged.length;
  const leaving = useCallback(
    (href: string) => {
      const url = new URL(href, location.href);
      const next = parseRoute(url.pathname, url.search);
      const stays = next.page === "data" && next.shard === shard && next.table === table.name;
      return stays
        ? null
        : `${pending} staged ${pending === 1 ? "change is" : "changes are"} not applied yet. Leave and discard ${pending === 1 ? "it" : "them"}?`;
    },
    [pending, shard, table.name],
  );
  useLeaveGuard(pending > 0 ? leaving : null);

  const afterWrite = () => {
    setSelected(new Set());
    pages.reload();
    props.onChanged();
  };

  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };

  return (
    <section class="table-view" aria-labelledby="table-title">
      <header class="section-header">
        <div>
          <h2 id="table-title" class="section-title">
            {table.name}{" "}
            <span class="muted small">{table.rows.toLocaleString("en")} stored rows</span>
          </h2>
          <p class="muted small">
            {table.policies === null
              ? "No row-level security: every caller reads every row."
              : `Row-level security: read ${table.policies.read}, insert ${table.policies.insert}, update ${table.policies.update}, delete ${table.policies.delete}.`}
          </p>
        </div>
        <div class="actions">
          <button
            type="button"
            class="btn btn-small"
            onClick={() => setEditing({ document: null })}
          >
            New document
          </button>
          <button
            type="button"
            class="btn btn-small btn-danger-ghost"
            disabled={selected.size === 0}
            onClick={() => setDeleting(true)}
          >
            Delete selected ({selected.size})
          </button>
        </div>
      </header>

      <BrowseControls shard={shard} table={table} browse={browse} />
      <ViewerBanner viewer={pages.viewer} asked={browse.as} />
      {staged.length > 0 ? (
        <div class="staged-bar" role="status">
          <span>
            <strong>{staged.length}</strong> staged {staged.length === 1 ? "change" : "changes"},
            not applied yet.
          </span>
          <span class="actions">
            <button type="button" class="btn btn-small" onClick={() => setStaged([])}>
              Discard
            </button>
            <button
              type="button"
              class="btn btn-small btn-primary"
              onClick={() => setReviewing(true)}
            >
              Review and apply
            </button>
          </span>
        </div>
      ) : null}

      {pages.error ? (
        <ErrorNotice error={pages.error} onRetry={pages.reload} />
      ) : pages.viewer === undefined ? (
        <Loading label="Loading documents…" />
      ) : (
        <>
          {pages.plan ? <PlanLine plan={pages.plan} /> : null}
          {pages.documents.length === 0 ? (
            <Empty
              title={pages.hasMore ? "No row matched in the rows read so far" : "No documents"}
            >
              {browse.as !== "" ? "Rows this caller may not read are hidden." : null}
            </Empty>
          ) : (
            <DocumentsGrid
              shard={shard}
              table={table}
              documents={pages.documents}
              selected={selected}
              onToggle={toggle}
              onToggleAll={(on) =>
                setSelected(on ? new Set(pages.documents.map((doc) => doc._id)) : new Set())
              }
              onOpen={(document) => setEditing({ document })}
            />
          )}
          {pages.moreError ? <ErrorNotice error={pages.moreError} compact /> : null}
          {pages.hasMore ? (
            <div class="load-more">
              <span class="muted small">
                {pages.documents.length.toLocaleString("en")} rows loaded
              </span>
              <button
                type="button"
                class="btn btn-small"
                disabled={pages.loadingMore}
                onClick={() => pages.loadMore()}
              >
                {pages.loadingMore
                  ? "Loading…"
                  : pages.plan?.scanLimited
                    ? "Keep scanning"
                    : "Load more"}
              </button>
            </div>
          ) : pages.documents.length > 0 ? (
            <p class="muted small load-more">
              All {pages.documents.length.toLocaleString("en")} rows loaded.
            </p>
          ) : null}
        </>
      )}

      {editing !== null ? (
        <DocumentDrawer
          shard={shard}
          table={table}
          document={editing.document}
          change={editing.change}
          onStage={(change) => {
            setStaged(stage(staged, change));
            setEditing(null);
          }}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {reviewing ? (
        <ReviewDialog
          shard={shard}
          table={table}
          staged={staged}
          onStagedChange={setStaged}
          onEdit={(change) => {
            setReviewing(false);
            setEditing({ document: change.kind === "insert" ? null : change.before, change });
          }}
          onApplied={(count) => {
            notify(`${count} ${count === 1 ? "change" : "changes"} applied to ${table.name}.`);
            afterWrite();
          }}
          onClose={() => setReviewing(false)}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete ${selected.size} ${selected.size === 1 ? "document" : "documents"}`}
          confirmLabel="Delete"
          danger
          requireText={table.name}
          onConfirm={async () => {
            const { count } = await data.bulkDelete(shard, table.name, [...selected]);
            notify(
              `${count} ${count === 1 ? "document" : "documents"} deleted from ${table.name}.`,
            );
            afterWrite();
          }}
          onClose={() => setDeleting(false)}
        >
          <p>
            The selected documents are deleted from shard <code>{shard}</code> in one transaction,
            as the operator (row-level security does not apply). This cannot be undone; the audit
            trail keeps each document as it was.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
