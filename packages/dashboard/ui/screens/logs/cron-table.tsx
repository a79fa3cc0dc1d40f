import { useState } from "preact/hooks";
import type { CronJobView } from "../../api/log-types.ts";
import { useApp } from "../../app-context.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { RowsTable } from "../../components/rows-table.tsx";
import { Time } from "../../components/time.tsx";
import { useToast } from "../../components/toasts.tsx";
import { JobRun } from "./job-run.tsx";

/** A job's schedule: in words, the expression beside it; a note for a job no longer declared. */
function Schedule(props: { job: CronJobView }) {
  const { schedule, summary } = props.job;
  if (schedule === null) return <span class="muted">no longer declared</span>;
  return (
    <span class="cron-schedule">
      {summary ?? schedule} <code class="muted mono">{schedule}</code>
    </span>
  );
}

/**
 * The cron jobs: each one's schedule in words, when it next fires, its runs
 * and failures, the last run and failure, and "Run now" (confirmed, then
 * audited by the server as `cron.run`). `onRan` reloads the list.
 *
 * @example <CronTable jobs={jobs} onRan={loaded.reload} />
 */
export function CronTable(props: { jobs: CronJobView[]; onRan: () => void }) {
  const { logs } = useApp();
  const notify = useToast();
  const [confirm, setConfirm] = useState<CronJobView | null>(null);
  const run = async () => {
    if (confirm === null) return;
    const ran = await logs.runCron(confirm.job);
    notify(`${ran.job} ran in shard ${ran.shardKey} (${ran.durationMs} ms).`);
    props.onRan();
  };
  return (
    <>
      <RowsTable
        columns={[
          "Job",
          "Schedule (UTC)",
          "Next run",
          "Runs",
          "Failures",
          "Last run",
          "Last failure",
        ]}
        actions
        class="jobs-table"
      >
        {props.jobs.map((job) => (
          <tr key={job.job} data-job={job.job}>
            <td data-label="Job" class="cell-wrap">
              <strong>{job.job}</strong> <span class="muted mono">{job.function}</span>
            </td>
            <td data-label="Schedule (UTC)" class="cell-wrap">
              <Schedule job={job} />
            </td>
            <td data-label="Next run">
              <Time iso={job.nextRun} empty={job.schedule === null ? "—" : "Not computed"} />
            </td>
            <td data-label="Runs">{job.runs}</td>
            <td data-label="Failures">{job.failures}</td>
            <td data-label="Last run">
              <JobRun record={job.lastRun} empty="Not run yet" />
            </td>
            <td data-label="Last failure">
              <JobRun record={job.lastFailure} empty="None" />
            </td>
            <td data-label="Actions">
              {job.schedule === null ? null : (
                <button
                  type="button"
                  class="btn btn-small"
                  aria-label={`Run now: ${job.job}`}
                  onClick={() => setConfirm(job)}
                >
                  Run now
                </button>
              )}
            </td>
          </tr>
        ))}
      </RowsTable>
      {confirm === null ? null : (
        <ConfirmDialog
          title={`Run ${confirm.job} now?`}
          confirmLabel="Run now"
          onConfirm={run}
          onClose={() => setConfirm(null)}
        >
          <p>
            Runs <code class="mono">{confirm.function}</code> now, as the service{" "}
            <code class="mono">cron:{confirm.job}</code>, as its schedule would. The run is recorded
            in the audit trail.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
