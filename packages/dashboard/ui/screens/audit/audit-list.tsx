import { Fragment } from "preact";
import type { AuditEntry } from "../../api/types.ts";
import { Time } from "../../components/time.tsx";
import { UserLink } from "../../components/user-link.tsx";
import { absoluteTime, timesIn } from "../../lib/format.ts";
import { Link } from "../../lib/navigation.tsx";
import { hrefOf } from "../../lib/routes.ts";

/**
 * The entry's target, linked when it leads somewhere: a user target is a user
 * id only when the entry names that user (`userId`); a failed creation keeps
 * the requested email there, which no drawer can open.
 */
function Target(props: { entry: AuditEntry }) {
  const { entry } = props;
  if (entry.targetType === "user" && entry.userId === entry.targetId)
    return <UserLink id={entry.targetId} user={entry.user} />;
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

/** Text with its ISO timestamps written as everywhere else ("23 Nov 2026, 09:00"). */
function WithTimes(props: { text: string }) {
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
 * An entry's detail, the id of the user it concerns written as that user's
 * name and email ("added Ann (ann@example.com) as member"), linked.
 */
function Detail(props: { entry: AuditEntry; text: string }) {
  const { userId, user } = props.entry;
  if (userId === null || user === null || userId === "") return <WithTimes text={props.text} />;
  // Each part keyed by where it starts in the text: after the first, a part follows an id.
  let at = 0;
  const parts = props.text.split(userId).map((text) => {
    const part = { at, text };
    at += text.length + userId.length;
    return part;
  });
  return (
    <>
      {parts.map((part) => (
        <Fragment key={part.at}>
          {part.at > 0 ? <UserLink id={userId} user={user} /> : null}
          <WithTimes text={part.text} />
        </Fragment>
      ))}
    </>
  );
}

/**
 * Audit entries, newest first: when, who (operator), what (action code),
 * to whom (and the user it concerns, by name, when the target is not that
 * user: a session, a membership), and how it ended. `compact` drops the target, for the user
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
              {entry.targetType !== "user" && entry.userId !== null && entry.user !== null ? (
                <>
                  {" "}
                  · user <UserLink id={entry.userId} user={entry.user} />
                </>
              ) : null}
            </div>
          )}
          {entry.reason ? <div class="audit-note">Reason: {entry.reason}</div> : null}
          {entry.detail ? (
            <div class="audit-note muted">
              <Detail entry={entry} text={entry.detail} />
            </div>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
