import { saveFile } from "../../lib/export-download.ts";
import { countOutcomes, problemRows, type RowOutcome, reportCsv } from "../../lib/import-run.ts";

/** Problem rows listed in the dialog; the downloadable report has them all. */
const LISTED = 50;

/**
 * The outcome of a dry run or an import: the counts, then each skipped or
 * invalid row (its row in the file, email and reasons), and the same as a
 * CSV download for fixing the file in a spreadsheet.
 *
 * @example
 * ```tsx
 * <ImportReportView outcomes={state.outcomes} dryRun fileName="users.csv" />
 * ```
 */
export function ImportReportView(props: {
  outcomes: readonly RowOutcome[];
  dryRun: boolean;
  fileName: string;
}) {
  const counts = countOutcomes(props.outcomes);
  const problems = problemRows(props.outcomes);
  const download = () =>
    saveFile(
      new Blob([reportCsv(problems)], { type: "text/csv" }),
      `${props.fileName.replace(/\.(csv|json)$/i, "")}-import-report.csv`,
    );
  return (
    <>
      <dl class="transfer-counts">
        {(
          [
            [
              props.dryRun ? "Would create" : "Created",
              props.dryRun ? counts.valid : counts.created,
            ],
            ["Skipped", counts.skipped],
            ["Invalid", counts.invalid],
          ] as const
        ).map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value.toLocaleString("en")}</dd>
          </div>
        ))}
      </dl>
      {problems.length > 0 ? (
        <section class="stack" aria-label="Rows not imported">
          <p class="field-label">
            {props.dryRun ? "Rows that would not be imported" : "Rows not imported"}
          </p>
          <ul class="outcome-list">
            {problems.slice(0, LISTED).map((outcome) => (
              <li key={outcome.row}>
                <span>
                  Row {outcome.row.toLocaleString("en")} · {outcome.email ?? "no email"} ·{" "}
                  {outcome.status}
                </span>
                <p class="outcome-reasons">{outcome.reasons.join("; ")}</p>
              </li>
            ))}
          </ul>
          {problems.length > LISTED ? (
            <p class="muted small">
              {(problems.length - LISTED).toLocaleString("en")} more in the report.
            </p>
          ) : null}
          <div>
            <button type="button" class="btn btn-small" onClick={download}>
              Download report (CSV)
            </button>
          </div>
        </section>
      ) : null}
    </>
  );
}
