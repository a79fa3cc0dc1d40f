import type { QueueBacklog, QueueView } from "../../api/log-types.ts";
import { RowsTable } from "../../components/rows-table.tsx";
import { Time } from "../../components/time.tsx";
import { formatBytes } from "../../lib/format.ts";
import { JobRun } from "./job-run.tsx";

/** What waits in a queue, or why it is not shown. */
function Backlog(props: { backlog: QueueBacklog | null }) {
  const { backlog } = props;
  if (backlog === null) return <span class="muted">Not reported</span>;
  return (
    <span>
      {backlog.messages.toLocaleString()} <span class="muted">({formatBytes(backlog.bytes)})</span>
    </span>
  );
}

/**
 * The consumed queues: messages, failures and dead letters over the window,
 * the last run and failure, and what waits now (count and the oldest
 * message's age) as the queue's producer binding reports it. A queue
 * without a producer binding in `wrangler.jsonc` (a dead-letter queue,
 * usually) has nothing to ask: "Not reported", explained under the table.
 *
 * @example <QueueTable queues={queues} />
 */
export function QueueTable(props: { queues: QueueView[] }) {
  const unreported = props.queues.some((queue) => queue.backlog === null);
  return (
    <>
      <RowsTable
        columns={[
          "Queue",
          "Waiting",
          "Oldest waiting",
          "Messages",
          "Failures",
          "Dead-lettered",
          "Last run",
          "Last failure",
        ]}
        class="queues-table"
      >
        {props.queues.map((queue) => (
          <tr key={queue.queue} data-queue={queue.queue}>
            <td data-label="Queue" class="cell-wrap">
              <strong>{queue.queue}</strong> <span class="muted mono">{queue.function}</span>
            </td>
            <td data-label="Waiting">
              <Backlog backlog={queue.backlog} />
            </td>
            <td data-label="Oldest waiting">
              <Time
                iso={queue.backlog?.oldestAt ?? null}
                empty={queue.backlog === null ? "Not reported" : "Nothing waits"}
              />
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
              <JobRun record={queue.lastRun} empty="No messages yet" />
            </td>
            <td data-label="Last failure">
              <JobRun record={queue.lastFailure} empty="None" />
            </td>
          </tr>
        ))}
      </RowsTable>
      {unreported ? (
        <p class="muted">
          “Not reported”: the backlog is read through the queue’s producer binding (
          <code>Queue.metrics()</code>); a queue with no producer binding in wrangler.jsonc, or a
          runtime that does not report it, shows none.
        </p>
      ) : null}
    </>
  );
}
