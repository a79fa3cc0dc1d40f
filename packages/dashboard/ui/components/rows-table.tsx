import type { ComponentChildren } from "preact";

/** A column header: its text, or its text and a class (`hide-narrow`, a width). */
export type RowsColumn = string | { label: string; class: string };

/**
 * The frame of every list the operator pages show as rows (backups,
 * migrations and their runs, files, scheduled jobs, members, invitations,
 * calls, cron jobs, queues, error groups, function metrics, organizations):
 * a scrolling wrap, a table whose rows stack into labelled cards at phone
 * width, the column headers, and an unseen "Actions" header when the last
 * cell holds buttons. The rows stay the caller's; one frame keeps the lists
 * alike on every page.
 *
 * @example
 * ```tsx
 * <RowsTable caption="Backups" columns={["Shard", "Taken"]} actions>
 *   {backups.map((backup) => <tr key={backup.id}>…</tr>)}
 * </RowsTable>
 * <RowsTable columns={["Time", "Status"]} class="calls-table">…</RowsTable>
 * ```
 */
export function RowsTable(props: {
  /** Read to screen readers only. */
  caption?: string;
  columns: readonly RowsColumn[];
  /** A last, visually hidden "Actions" column header. */
  actions?: boolean;
  /** The list's own class beside the frame's (`calls-table`), for its styles and tests. */
  class?: string;
  /** Rows stack into labelled cards at phone width. @default true */
  stack?: boolean;
  children: ComponentChildren;
}) {
  const classes = ["table table-rows", props.stack === false ? null : "table-stack", props.class];
  return (
    <div class="table-wrap">
      <table class={classes.filter(Boolean).join(" ")}>
        {props.caption === undefined ? null : <caption class="sr-only">{props.caption}</caption>}
        <thead>
          <tr>
            {props.columns.map((column) =>
              typeof column === "string" ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.label} scope="col" class={column.class}>
                  {column.label}
                </th>
              ),
            )}
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
