import type { CallRecord } from "../../api/log-types.ts";
import { Time } from "../../components/time.tsx";
import { statusLabel, statusTone } from "../../lib/log-format.ts";
import { Link } from "../../lib/navigation.tsx";
import { hrefOf, NO_LOG_FILTERS } from "../../lib/routes.ts";

/**
 * A cron job's or queue's run: its status and time, linking to the call's
 * detail; `empty` when there is none.
 *
 * @example <JobRun record={job.lastRun} empty="Not run yet" />
 */
export function JobRun(props: { record: CallRecord | null; empty: string }) {
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
