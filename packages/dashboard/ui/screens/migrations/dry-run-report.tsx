import type { MigrationRun } from "../../api/data-admin.ts";
import { NameText } from "../../components/name-text.tsx";
import { RowsTable } from "../../components/rows-table.tsx";

/**
 * What a dry run found, shard by shard: documents a run would change,
 * delete or leave, those that would fail (with the first error), and a
 * before/after sample. Nothing was written. On a phone the rows become
 * stacked, labelled cards.
 *
 * @example <DryRunReport run={answer} />
 */
export function DryRunReport(props: { run: MigrationRun }) {
  const { shards } = props.run;
  const sum = (field: "wouldChange" | "wouldDelete" | "failed") =>
    shards.reduce((total, shard) => total + (shard.report?.[field] ?? 0), 0);
  return (
    <div class="stack">
      <p role="status">
        Dry run of <code>{props.run.name}</code> over {shards.length}{" "}
        {shards.length === 1 ? "shard" : "shards"}: {sum("wouldChange")} would change,{" "}
        {sum("wouldDelete")} would be deleted, {sum("failed")} would fail. Nothing was written.
      </p>
      <RowsTable
        caption="Dry run by shard"
        columns={[
          "Shard",
          "To check",
          "Would change",
          "Would delete",
          "Unchanged",
          "Would fail",
          "Sample",
        ]}
      >
        {shards.map(({ key, report, error }) => (
          <tr key={key}>
            <td data-label="Shard" class="cell-wrap">
              <code>
                <NameText text={key} />
              </code>
            </td>
            {report === null ? (
              <td data-label="Error" colSpan={6} class="cell-wrap">
                {error?.message ?? "No answer."}
              </td>
            ) : (
              <>
                <td data-label="To check">{report.scanned}</td>
                <td data-label="Would change">{report.wouldChange}</td>
                <td data-label="Would delete">{report.wouldDelete}</td>
                <td data-label="Unchanged">{report.unchanged}</td>
                <td data-label="Would fail" class="cell-wrap">
                  {report.failed}
                  {report.errors[0] ? <div class="muted">{report.errors[0].message}</div> : null}
                </td>
                <td data-label="Sample" class="cell-wrap">
                  {report.samples[0] ? (
                    <div class="mono small">
                      <div>before {JSON.stringify(report.samples[0].before)}</div>
                      <div>after {JSON.stringify(report.samples[0].after)}</div>
                    </div>
                  ) : (
                    <span class="muted">—</span>
                  )}
                </td>
              </>
            )}
          </tr>
        ))}
      </RowsTable>
    </div>
  );
}
