import { Link } from "../../lib/navigation.tsx";

/**
 * One figure of the overview as a term and its value (inside a `<dl>`), with
 * an optional note under it and, when the figure has a list behind it, a link
 * there: "Banned now: 12" opens the banned users.
 *
 * @example
 * ```tsx
 * <dl class="stats"><Stat label="Users" value={1200} href="/_svc/dashboard/users" /></dl>
 * ```
 */
export function Stat(props: {
  label: string;
  /** A count, or a figure already in words ("2.5 %", "41 ms"). */
  value: number | string;
  note?: string;
  href?: string;
}) {
  const value = typeof props.value === "number" ? props.value.toLocaleString("en") : props.value;
  return (
    <div class="stat card">
      <dt class="stat-label">{props.label}</dt>
      <dd class="stat-value">
        {props.href ? (
          <Link href={props.href} aria-label={`${props.label}: ${value}`}>
            {value}
          </Link>
        ) : (
          value
        )}
      </dd>
      {props.note ? <dd class="stat-note">{props.note}</dd> : null}
    </div>
  );
}
