import type { AuditEntry } from "../../api/types.ts";
import { Time } from "../../components/time.tsx";
import { absoluteTime, timesIn } from "../../lib/format.ts";
import { Link } from "../../lib/navigation.tsx";
import { hrefOf, userHref } from "../../lib/routes.ts";

/**
 * The entry's target, linked when it leads somewhere: a user target is a user
 * id only when the entry names that user (`userId`); a failed creation keeps
 * the requested email there, which no drawer can open.
 */
function Target(props: { entry: AuditEntry }) {
  const { entry } = props;
  if (entry.targetType === "user" && entry.userId === entry.targetId) {
    return (
      <Link href={userHref(entry.targetId)} class="mono">
        {entry.targetId}
      </Link>
    );
  }
  if (entry.targetType === "organization") {
    return (
      <Link
        href={hrefOf({ page: "organizations", orgId: entry.targetId, tab: "members" })}
        class="mono"
      >
        {entry.targetId}
      </Link>
    );
  }
  return <span class="mono">{entry.targetId}</span>;
}

/** An entry's detail with its ISO timestamps written as everywhere else ("23 Nov 2026, 09:00"). */
function Detail(props: { text: string }) {
  return (
    <>
      {timesIn(props.text).map((part) =>
        part.iso === undefined ? (
          part.text
        ) : (
          <time key={part.at} dateTime={part.iso}>
            {absoluteTime(part.iso)}
          </time>
        ),
      )}
    </>
  );
}

/**
 * Audit entries, newest first: when, who (operator), what (action code),
 * to whom, and how it ended. `compact` drops the target, for the user
 * drawer where the target is the user in view.
 */
export function AuditList(props: { entries: AuditEntry[]; compact?: boolean }) {
  return (
    <ol class="audit">
      {props.entries.map((entry) => (
        <li key={entry.id} class="audit-entry">
          <div class="audit-line">
            <code class="audit-action">{entry.action}</code>
            {entry.outcome === "error" ? (
              <span class="badge badge-danger">failed</span>
            ) : (
              <span class="badge badge-ok">ok</span>
            )}
            <span class="muted">
              by <strong class="operator">{entry.operator}</strong> · <Time iso={entry.at} />
            </span>
          </div>
          {props.compact ? null : (
            <div class="audit-target muted">
              {entry.targetType} <Target entry={entry} />
            </div>
          )}
          {entry.reason ? <div class="audit-note">Reason: {entry.reason}</div> : null}
          {entry.detail ? (
            <div class="audit-note muted">
              <Detail text={entry.detail} />
            </div>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
