import type { ScheduledJobView } from "@svc/server/routes/contract";
import { RowsTable } from "../../components/rows-table.tsx";
import { Time } from "../../components/time.tsx";
import { Link } from "../../lib/navigation.tsx";

const TONE: Record<ScheduledJobView["state"], string> = {
  pending: "",
  running: "badge-warn",
  succeeded: "badge-ok",
  failed: "badge-danger",
  canceled: "",
};

const COLUMNS = ["State", "Due", "Function", "Runs as", "Attempts", "Error"];

/**
 * Jobs by due time: state, due time, function, who it runs as, attempts and
 * the last error, with a Cancel button on each pending job. Given
 * `shardOf` (jobs across shards), a first Shard column links each job's
 * shard to its own view. On a phone the rows become stacked, labelled cards.
 */
export function JobTable<Job extends ScheduledJobView>(props: {
  jobs: Job[];
  onCancel: (job: Job) => void;
  shardOf?: (job: Job) => { key: string; href: string };
}) {
  const { shardOf } = props;
  return (
    <RowsTable columns={shardOf ? ["Shard", ...COLUMNS] : COLUMNS} actions>
      {props.jobs.map((job) => (
        <tr key={job.id} data-job-id={job.id}>
          {shardOf ? (
            <td data-label="Shard" class="cell-wrap">
              <Link href={shardOf(job).href}>{shardOf(job).key}</Link>
            </td>
          ) : null}
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
