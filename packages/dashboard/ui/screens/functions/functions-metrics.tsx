import { useState } from "preact/hooks";
import { ApiError } from "../../api/client.ts";
import type { MetricsWindow } from "../../api/log-types.ts";
import { useApp } from "../../app-context.ts";
import { AdminCallsSwitch } from "../../components/admin-calls-switch.tsx";
import { Empty, LoadView } from "../../components/states.tsx";
import { navigate } from "../../lib/navigation.tsx";
import { hrefOf, METRICS_WINDOWS } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";
import { MetricsPanel } from "./metrics-panel.tsx";

const WINDOW_LABELS: Record<MetricsWindow, string> = {
  "1h": "Last hour",
  "24h": "Last 24 hours",
  "7d": "Last 7 days",
};

/**
 * The Functions page's metrics: every function's calls, errors and latency
 * over a window (kept in the URL beside the chosen procedure), busiest
 * first, from the log store's roll-ups; the admin API's own calls only when
 * the operator switches them on. Without a log store it says so.
 */
export function FunctionsMetrics(props: {
  window: MetricsWindow;
  path: string | null;
  shard: string;
}) {
  const { logs } = useApp();
  const [includeAdmin, setIncludeAdmin] = useState(false);
  const loaded = useLoad(
    (signal) => logs.metrics(props.window, includeAdmin, signal),
    [props.window, includeAdmin],
  );
  const notStored = loaded.error instanceof ApiError && loaded.error.status === 404;
  return (
    <section class="section functions-metrics" aria-labelledby="functions-metrics-title">
      <div class="section-header">
        <h2 id="functions-metrics-title" class="section-title">
          Calls, errors and latency
        </h2>
        <label class="field">
          <span class="field-label">Window</span>
          <select
            class="input"
            value={props.window}
            onChange={(event) =>
              navigate(
                hrefOf({
                  page: "functions",
                  path: props.path,
                  shard: props.shard,
                  window: event.currentTarget.value as MetricsWindow,
                }),
                { replace: true },
              )
            }
          >
            {METRICS_WINDOWS.map((window) => (
              <option key={window} value={window}>
                {WINDOW_LABELS[window]}
              </option>
            ))}
          </select>
        </label>
        <AdminCallsSwitch checked={includeAdmin} onChange={setIncludeAdmin} />
      </div>
      {notStored ? (
        <Empty title="Call records are not stored">
          Bind the log store (LogStore) as SVC_LOGS to see metrics here.
        </Empty>
      ) : (
        <LoadView loaded={loaded} label="Loading metrics…">
          {(answer) =>
            answer.functions.length === 0 ? (
              <Empty title="No calls in this window">Functions appear once they are called.</Empty>
            ) : (
              <MetricsPanel functions={answer.functions} window={props.window} />
            )
          }
        </LoadView>
      )}
    </section>
  );
}
