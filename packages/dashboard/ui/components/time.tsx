import { absoluteTime, relativeTime } from "../lib/format.ts";

/** A timestamp as "3 hours ago", exact date and time on hover and for machines. */
export function Time(props: { iso: string | null; empty?: string }) {
  if (props.iso === null) return <span class="muted">{props.empty ?? "—"}</span>;
  return (
    <time dateTime={props.iso} title={absoluteTime(props.iso)}>
      {relativeTime(props.iso)}
    </time>
  );
}
