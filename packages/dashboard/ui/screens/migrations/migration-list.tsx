import type { MigrationSummary } from "../../api/data-admin.ts";
import { NameText } from "../../components/name-text.tsx";
import { RowsTable } from "../../components/rows-table.tsx";

/** The states of a migration in a shard, in the order an operator reads them. */
const STATES = ["done", "running", "registered", "stopped"] as const;

/**
 * The app's migrations, each with its table, how many shards are in each
 * state (done, running, registered, stopped; those with failed documents),
 * the documents it changed, and the two actions: a dry run (writes
 * nothing) and a run (asks first). On a phone the rows become stacked,
 * labelled cards.
 *
 * @example <MigrationList migrations={migrations} onDryRun={dryRun} onRun={confirmRun} busy={null} />
 */
export function MigrationList(props: {
  migrations: MigrationSummary[];
  busy: string | null;
  onDryRun: (name: string) => void;
  onRun: (name: string) => void;
}) {
  return (
    <RowsTable caption="Migrations" columns={["Migration", "Table", "Shards", "Documents"]} actions>
      {props.migrations.map((migration) => (
        <tr key={migration.name} data-migration={migration.name}>
          <td data-label="Migration" class="cell-wrap">
            <code>
              <NameText text={migration.name} />
            </code>
          </td>
          <td data-label="Table">
            <code>{migration.table}</code>
          </td>
          <td data-label="Shards" class="cell-wrap">
            {STATES.filter((state) => migration.shards[state] > 0).map((state) => (
              <span key={state} class={state === "stopped" ? "badge badge-danger" : "badge"}>
                {state} {migration.shards[state]}
              </span>
            ))}
            {migration.shards.withFailures > 0 ? (
              <span class="badge badge-warn">with failures {migration.shards.withFailures}</span>
            ) : null}
          </td>
          <td data-label="Documents" class="cell-wrap muted">
            {migration.documents.changed} changed · {migration.documents.deleted} deleted ·{" "}
            {migration.documents.failed} failed
          </td>
          <td data-label="Actions" class="cell-actions">
            <button
              type="button"
              class="btn btn-small"
              disabled={props.busy !== null}
              aria-label={`Dry run ${migration.name}`}
              onClick={() => props.onDryRun(migration.name)}
            >
              Dry run
            </button>
            <button
              type="button"
              class="btn btn-small"
              disabled={props.busy !== null}
              aria-label={`Run ${migration.name}`}
              onClick={() => props.onRun(migration.name)}
            >
              Run…
            </button>
          </td>
        </tr>
      ))}
    </RowsTable>
  );
}
