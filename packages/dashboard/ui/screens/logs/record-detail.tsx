import { type ComponentChildren, Fragment } from "preact";
import type { CallRecord } from "../../api/log-types.ts";
import { CopyButton } from "../../components/copy-button.tsx";
import { Time } from "../../components/time.tsx";
import { formatBytes } from "../../lib/format.ts";
import { formatDuration, statusLabel, statusTone } from "../../lib/log-format.ts";
import { CallerCell } from "./caller-cell.tsx";

function Facts(props: { record: CallRecord }) {
  const { record } = props;
  const rows: [string, ComponentChildren][] = [
    ["Time", <Time key="t" iso={record.time} absolute />],
    [
      "Request id",
      <span key="r" class="field-with-action">
        <code class="mono">{record.requestId}</code>
        <CopyButton value={record.requestId} label="Copy ID" />
      </span>,
    ],
    ["Entry point", record.entry],
    ["Function", <code key="f">{record.route}</code>],
    [
      "Status",
      <span key="s" class={`badge badge-${statusTone(record.status)}`}>
        {statusLabel(record)}
      </span>,
    ],
    ["Duration", formatDuration(record.durationMs)],
    ["Caller", <CallerCell key="c" caller={record.caller} named />],
    ["Shard", record.shardKey ?? "—"],
    ["Bytes in / out", `${formatBytes(record.bytesIn)} / ${formatBytes(record.bytesOut)}`],
  ];
  if (record.method !== null) rows.splice(4, 0, ["Method", record.method]);
  if (record.cron) rows.push(["Cron job", `${record.cron.job} (${record.cron.schedule})`]);
  if (record.queue) {
    const { queue } = record;
    rows.push([
      "Queue message",
      `${queue.queue}, ${queue.messageId ?? `batch of ${queue.messages}`}, attempt ${queue.attempt}${queue.deadLettered ? ", dead-lettered" : ""}`,
    ]);
  }
  return (
    <dl class="fields">
      {rows.map(([label, value]) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/**
 * Everything one call recorded: its facts, the error with its stack (kept
 * server-side, shown only to operators), the handler's console lines, and
 * the arguments of a procedure that opted in.
 */
export function RecordDetail(props: { record: CallRecord }) {
  const { record } = props;
  return (
    <div class="drawer-content record-detail">
      <Facts record={record} />
      {record.error ? (
        <section class="section" aria-labelledby="record-error">
          <h3 id="record-error" class="section-title">
            Error
          </h3>
          <p class="record-error-message">{record.error.message}</p>
          {record.error.stack ? <pre class="record-block">{record.error.stack}</pre> : null}
        </section>
      ) : null}
      <section class="section" aria-labelledby="record-console">
        <h3 id="record-console" class="section-title">
          Console
        </h3>
        {record.logs.length === 0 ? (
          <p class="muted">The handler wrote no console lines.</p>
        ) : (
          <ol class="console-lines">
            {record.logs.map((line, index) => (
              <li key={index} class={`console-line console-${line.level}`}>
                <span class="console-meta">
                  {line.level} +{line.at} ms
                </span>{" "}
                <span class="console-text">{line.message}</span>
              </li>
            ))}
          </ol>
        )}
        {record.logsDropped > 0 ? (
          <p class="muted">{record.logsDropped} more lines were left out.</p>
        ) : null}
      </section>
      {record.args !== undefined ? (
        <section class="section" aria-labelledby="record-args">
          <h3 id="record-args" class="section-title">
            Arguments
          </h3>
          <pre class="record-block">{JSON.stringify(record.args, null, 2)}</pre>
        </section>
      ) : null}
    </div>
  );
}
