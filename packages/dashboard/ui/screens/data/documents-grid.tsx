import { useEffect, useRef, useState } from "preact/hooks";
import type { StudioDocument, TableInfo } from "../../api/data.ts";
import { DocumentIdLink } from "../../components/document-id-link.tsx";
import { UserIdLink } from "../../components/user-id-link.tsx";
import { cellText, idTableOf } from "../../lib/field-values.ts";
import { absoluteTime } from "../../lib/format.ts";

/** Height of one grid row in pixels (fixed, so the visible slice is computed, never measured). */
export const ROW_HEIGHT = 36;
/** Rows rendered beyond each edge of the visible slice, so a fast scroll never shows a gap. */
const OVERSCAN = 10;
/** Longest text a cell's tooltip carries. */
const TITLE_LIMIT = 400;

/** Where a field's values lead: a user (a field the table's policies compare with the caller), or a document of a table (`v.id(…)`). */
type FieldLink = { to: "user" } | { to: "document"; shard: string; table: string };

/** A field's value; a user's id or a document's id leads there. */
function Cell(props: { value: unknown; link: FieldLink | null }) {
  const { value, link } = props;
  if (value === undefined) return <span class="muted">—</span>;
  if (link !== null && typeof value === "string" && value !== "")
    return link.to === "user" ? (
      <UserIdLink id={value} />
    ) : (
      <DocumentIdLink shard={link.shard} table={link.table} id={value} />
    );
  const text = cellText(value);
  return (
    <span title={text.length > TITLE_LIMIT ? `${text.slice(0, TITLE_LIMIT)}…` : text}>{text}</span>
  );
}

function CreationTime(props: { at: number }) {
  const iso = new Date(props.at).toISOString();
  return (
    <time dateTime={iso} title={String(props.at)}>
      {absoluteTime(iso)}
    </time>
  );
}

/** How each field's values link, by field name. */
function linksOf(shard: string, table: TableInfo): Record<string, FieldLink | null> {
  const links: Record<string, FieldLink | null> = {};
  for (const field of table.fields) {
    const target = idTableOf(field.schema);
    links[field.name] = table.userFields.includes(field.name)
      ? { to: "user" }
      : target === null
        ? null
        : { to: "document", shard, table: target };
  }
  return links;
}

/**
 * The documents as a grid whose columns come from the table's schema:
 * selection, `_id` (opens the document), each field (a user's id links to
 * that user, a `v.id(…)` value to its document), `_creationTime`. Only
 * the rows in view (and a few around them) are in the DOM, between two
 * spacers as tall as the rows left out, so a thousand rows scroll as
 * smoothly as ten; `aria-rowcount` / `aria-rowindex` keep the full count
 * for screen readers.
 */
export function DocumentsGrid(props: {
  shard: string;
  table: TableInfo;
  documents: StudioDocument[];
  selected: ReadonlySet<string>;
  onToggle: (id: string, on: boolean) => void;
  onToggleAll: (on: boolean) => void;
  onOpen: (document: StudioDocument) => void;
}) {
  const { documents, table } = props;
  const scroller = useRef<HTMLElement>(null);
  const [view, setView] = useState({ top: 0, height: 560 });

  useEffect(() => {
    const element = scroller.current;
    if (element === null) return;
    const measure = () => setView({ top: element.scrollTop, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const first = Math.max(0, Math.floor(view.top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(
    documents.length,
    Math.ceil((view.top + view.height) / ROW_HEIGHT) + OVERSCAN,
  );
  const columns = table.fields.length + 3;
  const links = linksOf(props.shard, table);
  const allSelected = documents.length > 0 && documents.every((doc) => props.selected.has(doc._id));

  return (
    <section
      ref={scroller}
      class="grid-scroll"
      aria-label={`Documents of ${table.name}`}
      onScroll={(event) =>
        setView({ top: event.currentTarget.scrollTop, height: event.currentTarget.clientHeight })
      }
    >
      <table class="table table-compact data-grid" aria-rowcount={documents.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col" class="col-select">
              <input
                type="checkbox"
                aria-label="Select every loaded row"
                checked={allSelected}
                onChange={(event) => props.onToggleAll(event.currentTarget.checked)}
              />
            </th>
            <th scope="col">_id</th>
            {table.fields.map((field) => (
              <th key={field.name} scope="col">
                {field.name}
              </th>
            ))}
            <th scope="col">_creationTime</th>
          </tr>
        </thead>
        <tbody>
          {first > 0 ? (
            <tr class="grid-spacer" style={{ height: `${first * ROW_HEIGHT}px` }}>
              <td colSpan={columns} />
            </tr>
          ) : null}
          {documents.slice(first, last).map((document, offset) => {
            const id = document._id;
            return (
              <tr
                key={id}
                aria-rowindex={first + offset + 2}
                class={props.selected.has(id) ? "selected" : undefined}
              >
                <td class="col-select">
                  <input
                    type="checkbox"
                    aria-label={`Select ${id}`}
                    checked={props.selected.has(id)}
                    onChange={(event) => props.onToggle(id, event.currentTarget.checked)}
                  />
                </td>
                <td class="col-id">
                  <button
                    type="button"
                    class="link-button mono"
                    onClick={() => props.onOpen(document)}
                  >
                    {id}
                  </button>
                </td>
                {table.fields.map((field) => (
                  <td key={field.name}>
                    <Cell value={document[field.name]} link={links[field.name] ?? null} />
                  </td>
                ))}
                <td>
                  <CreationTime at={document._creationTime} />
                </td>
              </tr>
            );
          })}
          {last < documents.length ? (
            <tr
              class="grid-spacer"
              style={{ height: `${(documents.length - last) * ROW_HEIGHT}px` }}
            >
              <td colSpan={columns} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </section>
  );
}
