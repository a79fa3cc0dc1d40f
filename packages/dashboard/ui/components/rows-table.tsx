import type { ComponentChildren } from "preact";

/**
 * The frame of every list the operator pages show as rows (backups,
 * migrations and their runs, files, scheduled jobs): a scrolling wrap, a
 * table whose rows stack into labelled cards at phone width, the column
 * headers, and an unseen "Actions" header when the last cell holds buttons.
 * The rows stay the caller's; one frame keeps the lists alike on every page.
 *
 * @example
 * ```tsx
 * <RowsTable caption="Backups" columns={["Shard", "Taken"]} actions>
 *   {backups.map((backup) => <tr key={backup.id}>…</tr>)}
 * </RowsTable>
 * ```
 */
export function RowsTable(props: {
  /** Read to screen readers only. */
  caption?: string;
  columns: readonly string[];
  /** A last, visually hidden "Actions" column header. */
  actions?: boolean;
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap">
      <table class="table table-rows table-stack">
        {props.caption === undefined ? null : <caption class="sr-only">{props.caption}</caption>}
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {props.actions === true ? (
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
