import type { FunctionMetrics, MetricsWindow } from "../../api/log-types.ts";
import { NameText } from "../../components/name-text.tsx";
import { RowsTable } from "../../components/rows-table.tsx";
import { Sparkline } from "../../components/sparkline.tsx";
import { formatDuration } from "../../lib/log-format.ts";
import { Link } from "../../lib/navigation.tsx";
import { callsHref } from "../../lib/routes.ts";

const WINDOW_WORDS: Record<MetricsWindow, string> = {
  "1h": "the last hour",
  "24h": "the last 24 hours",
  "7d": "the last 7 days",
};

function errorsTitle(errorsByCode: Record<string, number>): string {
  return Object.entries(errorsByCode)
    .map(([code, count]) => `${code}: ${count}`)
    .join(", ");
}

/**
 * Per function and entry point over a window: calls, errors (by code on
 * hover and for screen readers), p50/p95/p99 duration and a sparkline of
 * calls. Each function leads to its calls on the Logs page. A panel of its
 * own, so a Functions page that also runs procedures can embed it.
 */
export function MetricsPanel(props: { functions: FunctionMetrics[]; window: MetricsWindow }) {
  return (
    <RowsTable
      columns={["Function", "Calls", "Errors", "p50", "p95", "p99", "Calls over time"]}
      class="metrics-table"
    >
      {props.functions.map((metrics) => {
        const codes = errorsTitle(metrics.errorsByCode);
        return (
          <tr key={`${metrics.entry}\n${metrics.function}`} data-function={metrics.function}>
            <td data-label="Function" class="cell-wrap">
              <Link
                class="mono"
                href={callsHref({ function: metrics.function, entry: metrics.entry })}
              >
                <NameText text={metrics.function} />
              </Link>{" "}
              <span class="badge">{metrics.entry}</span>
            </td>
            <td data-label="Calls">{metrics.calls.toLocaleString("en")}</td>
            <td data-label="Errors">
              {metrics.errors === 0 ? (
                "0"
              ) : (
                <span class="badge badge-danger" title={codes}>
                  {metrics.errors.toLocaleString("en")}
                  <span class="sr-only"> ({codes})</span>
                </span>
              )}
            </td>
            <td data-label="p50">{formatDuration(metrics.p50Ms)}</td>
            <td data-label="p95">{formatDuration(metrics.p95Ms)}</td>
            <td data-label="p99">{formatDuration(metrics.p99Ms)}</td>
            <td data-label="Calls over time">
              <Sparkline
                values={metrics.series.map((point) => point.calls)}
                danger={metrics.errors > 0}
                label={`${metrics.calls} calls of ${metrics.function} over ${WINDOW_WORDS[props.window]}`}
              />
            </td>
          </tr>
        );
      })}
    </RowsTable>
  );
}
