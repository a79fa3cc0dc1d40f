import type { CallRecord } from "../../api/log-types.ts";
import { NameText } from "../../components/name-text.tsx";
import { RowsTable } from "../../components/rows-table.tsx";
import { Time } from "../../components/time.tsx";
import { formatDuration, statusLabel, statusTone } from "../../lib/log-format.ts";
import { Link } from "../../lib/navigation.tsx";
import { CallerCell } from "./caller-cell.tsx";
import { useCallerNames } from "./use-caller-names.ts";

/**
 * Calls, newest first: when, the status (and code), the function with its
 * entry point, the caller (a user leads to that user), the duration and
 * the shard; callers are named by one batched lookup of the page's users.
 * The function is a link to the call's detail; a click anywhere on the row follows it. On a
 * phone the rows become stacked, labelled cards.
 */
export function CallTable(props: {
  records: CallRecord[];
  hrefOf: (record: CallRecord) => string;
}) {
  const names = useCallerNames(props.records);
  return (
    <RowsTable
      columns={["Time", "Status", "Function", "Caller", "Duration", "Shard"]}
      class="calls-table"
    >
      {props.records.map((record) => (
        <tr
          key={record.requestId}
          class="row-link"
          data-request-id={record.requestId}
          onClick={(event) => {
            if ((event.target as HTMLElement).closest("a, button")) return;
            (event.currentTarget.querySelector("a") as HTMLAnchorElement | null)?.click();
          }}
        >
          <td data-label="Time">
            <Time iso={record.time} />
          </td>
          <td data-label="Status">
            <span class={`badge badge-${statusTone(record.status)}`}>{statusLabel(record)}</span>
          </td>
          <td data-label="Function" class="cell-wrap">
            <Link href={props.hrefOf(record)} class="mono call-route">
              <NameText text={record.route} />
            </Link>{" "}
            <span class="badge">{record.entry}</span>
          </td>
          <td data-label="Caller" class="cell-wrap muted">
            <CallerCell caller={record.caller} names={names} />
          </td>
          <td data-label="Duration">{formatDuration(record.durationMs)}</td>
          <td data-label="Shard" class="cell-wrap mono muted">
            {record.shardKey === null ? "—" : <NameText text={record.shardKey} />}
          </td>
        </tr>
      ))}
    </RowsTable>
  );
}
