import { type DayCount, dayLabel, summarizeSignUps } from "../../lib/sign-up-summary.ts";

/**
 * Sign-ups per UTC day as bars, with the same facts in words for everyone:
 * a caption (total, busiest day) that screen readers get instead of the
 * drawing, and a "Daily numbers" table for exact values. Bars are plain
 * boxes sized in percent, so the chart fits a phone without a scrollbar.
 *
 * @example
 * ```tsx
 * <SignUpsChart days={overview.signUps} window={30} />
 * ```
 */
export function SignUpsChart(props: { days: readonly DayCount[]; window: number }) {
  const { total, peak, scaleMax } = summarizeSignUps(props.days);
  const first = props.days[0];
  const last = props.days.at(-1);
  return (
    <figure class="chart card">
      <figcaption class="chart-caption">
        <strong>{total.toLocaleString("en")}</strong> sign-up{total === 1 ? "" : "s"} in the last{" "}
        {props.window} days
        {peak ? (
          <>
            , most on {dayLabel(peak.day)} ({peak.count.toLocaleString("en")})
          </>
        ) : null}
        .
      </figcaption>
      <div class="chart-plot" aria-hidden="true">
        <div class="chart-scale">
          <span>{scaleMax.toLocaleString("en")}</span>
          <span>0</span>
        </div>
        <div class="chart-bars">
          {props.days.map((day) => (
            <div
              key={day.day}
              class="chart-bar"
              title={`${dayLabel(day.day)}: ${day.count.toLocaleString("en")}`}
            >
              <span style={{ height: `${(day.count / scaleMax) * 100}%` }} />
            </div>
          ))}
        </div>
        {first && last ? (
          <div class="chart-axis">
            <span>{dayLabel(first.day)}</span>
            <span>{dayLabel(last.day)}</span>
          </div>
        ) : null}
      </div>
      <details class="chart-table">
        <summary>Daily numbers</summary>
        <table class="table">
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col" class="numeric">
                Sign-ups
              </th>
            </tr>
          </thead>
          <tbody>
            {[...props.days].reverse().map((day) => (
              <tr key={day.day}>
                <td>
                  <time dateTime={day.day}>{dayLabel(day.day)}</time>
                </td>
                <td class="numeric">{day.count.toLocaleString("en")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
