import type { ScheduledJobView } from "@svc/server/routes/contract";
import { RowsTable } from "../../components/rows-table.tsx";
import { Time } from "../../components/time.tsx";

const TONE: Record<ScheduledJobView["state"], string> = {
  pending: "",
  running: "badge-warn",
  succeeded: "badge-ok",
  failed: "badge-danger",
  canceled: "",
};

/**
 * A shard's jobs by due time: state, due time, function, who it runs as,
 * attempts and the last error, with a Cancel button on each pending job. On
 * a phone the rows become stacked, labelled cards.
 */
export function JobTable(props: {
  jobs: ScheduledJobView[];
  onCancel: (job: ScheduledJobView) => void;
}) {
  return (
    <RowsTable columns={["State", "Due", "Function", "Runs as", "Attempts", "Error"]} actions>
      {props.jobs.map((job) => (
        <tr key={job.id} data-job-id={job.id}>
          <td data-label="State">
            <span class={`badge ${TONE[job.state]}`}>{job.state}</span>
          </td>
          <td data-label="Due">
            <Time iso={job.dueAt} />
          </td>
          <td data-label="Function" class="cell-wrap">
            <code>{job.function}</code>
            <div class="muted mono">{JSON.stringify(job.args)}</div>
          </td>
          <td data-label="Runs as" class="cell-wrap muted">
            {job.runsAs}
          </td>
          <td data-label="Attempts">{job.attempts}</td>
          <td data-label="Error" class="cell-wrap">
            {job.error ?? <span class="muted">—</span>}
          </td>
          <td data-label="Actions">
            {job.state === "pending" ? (
              <button
                type="button"
                class="btn btn-small"
                aria-label={`Cancel job ${job.id}`}
                onClick={() => props.onCancel(job)}
              >
                Cancel
              </button>
            ) : null}
          </td>
        </tr>
      ))}
    </RowsTable>
  );
}
