import type { CallRecord } from "../../api/log-types.ts";
import { useApp } from "../../app-context.ts";
import { Empty, LoadView } from "../../components/states.tsx";
import { Time } from "../../components/time.tsx";
import { statusLabel, statusTone } from "../../lib/log-format.ts";
import { Link } from "../../lib/navigation.tsx";
import { hrefOf, NO_LOG_FILTERS } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";

/** A run's time and status, linking to its detail; a dash when there is none. */
function Run(props: { record: CallRecord | null; empty: string }) {
  const { record } = props;
  if (record === null) return <span class="muted">{props.empty}</span>;
  const href = hrefOf({
    page: "logs",
    view: "calls",
    filters: { ...NO_LOG_FILTERS, entry: record.entry },
    record: record.requestId,
  });
  return (
    <span class="run">
      <span class={`badge badge-${statusTone(record.status)}`}>{statusLabel(record)}</span>{" "}
      <Link href={href}>
        <Time iso={record.time} />
      </Link>
    </span>
  );
}

/**
 * Cron jobs and queue consumers over the last 24 hours: runs, failures,
 * dead-lettered messages, the last run and the last failure of each (every
 * declared job and queue is listed, with zeros until it first runs).
 */
export function JobsView() {
  const { logs } = useApp();
  const loaded = useLoad(async (signal) => {
    const [cron, queues] = await Promise.all([
      logs.cron("24h", signal),
      logs.queues("24h", signal),
    ]);
    return { jobs: cron.jobs, queues: queues.queues };
  }, []);
  return (
    <LoadView loaded={loaded} label="Loading cron jobs and queues…">
      {({ jobs, queues }) => (
        <>
          <section class="section" aria-labelledby="cron-title">
            <h2 id="cron-title" class="section-title">
              Cron jobs <span class="muted">· last 24 hours</span>
            </h2>
            {jobs.length === 0 ? (
              <Empty title="No cron jobs">Declare them in svc/crons.ts.</Empty>
            ) : (
              <div class="table-wrap">
                <table class="table table-stack jobs-table">
                  <thead>
                    <tr>
                      <th scope="col">Job</th>
                      <th scope="col">Schedule</th>
                      <th scope="col">Runs</th>
                      <th scope="col">Failures</th>
                      <th scope="col">Last run</th>
                      <th scope="col">Last failure</th>
                    </tr>
                  </thead>
                  <tbody>
                    {jobs.map((job) => (
                      <tr key={job.job}>
                        <td data-label="Job" class="cell-wrap">
                          <strong>{job.job}</strong> <span class="muted mono">{job.function}</span>
                        </td>
                        <td data-label="Schedule" class="mono">
                          {job.schedule ?? "no longer declared"}
                        </td>
                        <td data-label="Runs">{job.runs}</td>
                        <td data-label="Failures">{job.failures}</td>
                        <td data-label="Last run">
                          <Run record={job.lastRun} empty="Not run yet" />
                        </td>
                        <td data-label="Last failure">
                          <Run record={job.lastFailure} empty="None" />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          <section class="section" aria-labelledby="queues-title">
            <h2 id="queues-title" class="section-title">
              Queues <span class="muted">· last 24 hours</span>
            </h2>
            {queues.length === 0 ? (
              <Empty title="No queue consumers">Declare them in svc/queues.ts.</Empty>
            ) : (
              <div class="table-wrap">
                <table class="table table-stack queues-table">
                  <thead>
                    <tr>
                      <th scope="col">Queue</th>
                      <th scope="col">Messages</th>
                      <th scope="col">Failures</th>
                      <th scope="col">Dead-lettered</th>
                      <th scope="col">Last run</th>
                      <th scope="col">Last failure</th>
                    </tr>
                  </thead>
                  <tbody>
                    {queues.map((queue) => (
                      <tr key={queue.queue}>
                        <td data-label="Queue" class="cell-wrap">
                          <strong>{queue.queue}</strong>{" "}
                          <span class="muted mono">{queue.function}</span>
                        </td>
                        <td data-label="Messages">{queue.runs}</td>
                        <td data-label="Failures">{queue.failures}</td>
                        <td data-label="Dead-lettered">
                          {queue.deadLettered > 0 ? (
                            <span class="badge badge-danger">{queue.deadLettered}</span>
                          ) : (
                            0
                          )}
                        </td>
                        <td data-label="Last run">
                          <Run record={queue.lastRun} empty="No messages yet" />
                        </td>
                        <td data-label="Last failure">
                          <Run record={queue.lastFailure} empty="None" />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </LoadView>
  );
}
