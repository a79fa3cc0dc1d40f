import { absoluteTime, relativeTime, utcTime } from "../lib/format.ts";

/**
 * A timestamp as "3 hours ago" (or, with `absolute`, the date and time in
 * the operator's time zone); the exact local time and the UTC time on hover
 * and for machines.
 *
 * @example <Time iso={record.time} absolute />
 */
export function Time(props: { iso: string | null; empty?: string; absolute?: boolean }) {
  if (props.iso === null) return <span class="muted">{props.empty ?? "—"}</span>;
  const local = absoluteTime(props.iso);
  return (
    <time dateTime={props.iso} title={`${local} (your time) · ${utcTime(props.iso)}`}>
      {props.absolute === true ? `${local} (${relativeTime(props.iso)})` : relativeTime(props.iso)}
    </time>
  );
}
