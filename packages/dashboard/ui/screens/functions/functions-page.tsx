import type { MetricsWindow } from "../../api/log-types.ts";
import { useApp } from "../../app-context.ts";
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
 * The Functions page: every function's calls, errors and latency over a
 * window (kept in the URL), busiest first, from the log store's roll-ups.
 */
export function FunctionsPage(props: { window: MetricsWindow }) {
  const { logs } = useApp();
  const loaded = useLoad((signal) => logs.metrics(props.window, signal), [props.window]);
  return (
    <div class="page">
      <header class="page-header">
        <div>
          <h1 class="page-title">Functions</h1>
          <p class="page-subtitle">Calls, errors and latency per function and entry point.</p>
        </div>
        <label class="field">
          <span class="field-label">Window</span>
          <select
            class="input"
            value={props.window}
            onChange={(event) =>
              navigate(
                hrefOf({ page: "functions", window: event.currentTarget.value as MetricsWindow }),
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
      </header>
      <LoadView loaded={loaded} label="Loading metrics…">
        {(answer) =>
          answer.functions.length === 0 ? (
            <Empty title="No calls in this window">Functions appear once they are called.</Empty>
          ) : (
            <MetricsPanel functions={answer.functions} window={props.window} />
          )
        }
      </LoadView>
    </div>
  );
}
