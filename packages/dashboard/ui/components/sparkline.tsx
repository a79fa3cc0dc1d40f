import { sparklinePoints } from "../lib/log-format.ts";

/**
 * A small line of counts over time, read as an image: its accessible name
 * says what it shows and its total, since the line itself is only a shape.
 */
export function Sparkline(props: { values: readonly number[]; label: string; danger?: boolean }) {
  const width = 120;
  const height = 28;
  return (
    <svg
      class={props.danger ? "sparkline sparkline-danger" : "sparkline"}
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-label={props.label}
    >
      <polyline points={sparklinePoints(props.values, width, height)} fill="none" />
    </svg>
  );
}
