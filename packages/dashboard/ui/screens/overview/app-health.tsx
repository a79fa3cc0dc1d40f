import { useApp } from "../../app-context.ts";
import { LoadView } from "../../components/states.tsx";
import { formatDuration } from "../../lib/log-format.ts";
import { callsHref, hrefOf } from "../../lib/routes.ts";
import { useLoad } from "../../lib/use-load.ts";
import { Stat } from "./stat.tsx";

/** "0 %", "2.5 %", "100 %": the share of failed calls, or a dash without calls. */
function errorRate(calls: number, errors: number): string {
  if (calls === 0) return "—";
  const percent = (errors / calls) * 100;
  return `${percent < 10 && percent > 0 ? percent.toFixed(1) : Math.round(percent)} %`;
}

/**
 * The app's health over the last hour, beside the auth totals: its calls,
 * the share that failed and the p95 duration, from the call records' metrics
 * (the admin API's own calls left out), each leading to the calls behind it.
 *
 * @example <AppHealth />
 */
export function AppHealth() {
  const { logs } = useApp();
  const metrics = useLoad((signal) => logs.metrics("1h", false, signal), []);
  return (
    <section class="overview-section" aria-labelledby="overview-health">
      <h2 id="overview-health" class="section-heading">
        App health <span class="muted">· last hour</span>
      </h2>
      <LoadView loaded={metrics} label="Reading the call records…">
        {({ overall }) => (
          <dl class="stats">
            <Stat label="Calls" value={overall.calls} href={callsHref()} />
            <Stat
              label="Error rate"
              value={errorRate(overall.calls, overall.errors)}
              note={`${overall.errors.toLocaleString("en")} failed`}
              href={callsHref({ status: "failed", since: "1h" })}
            />
            <Stat
              label="p95 duration"
              value={overall.p95Ms === null ? "—" : formatDuration(overall.p95Ms)}
              href={hrefOf({ page: "functions", path: null })}
            />
          </dl>
        )}
      </LoadView>
    </section>
  );
}
