import type { RunAnswer } from "../../api/data.ts";
import { viewerName } from "../data/viewer-banner.tsx";

/** A run's answer: the value or the error, whom it ran as, how long it took, what it wrote. */
export function RunResult(props: { answer: RunAnswer }) {
  const { answer } = props;
  const { outcome } = answer;
  return (
    <div class={outcome.ok ? "run-result run-ok" : "run-result run-failed"} role="status">
      <p class="run-summary">
        <span class={outcome.ok ? "badge badge-ok" : "badge badge-danger"}>
          {outcome.ok ? "Succeeded" : outcome.error.code}
        </span>{" "}
        as {viewerName(answer.as)} · {answer.durationMs} ms ·{" "}
        {answer.writes.length === 0
          ? "wrote nothing"
          : `wrote ${answer.writes.length} ${answer.writes.length === 1 ? "document" : "documents"}`}
      </p>
      {outcome.ok ? (
        <pre class="code-block">{JSON.stringify(outcome.value, null, 2) ?? "null"}</pre>
      ) : (
        <div class="field-problem">
          <p>{outcome.error.message}</p>
          {(outcome.error.issues ?? []).length > 0 ? (
            <ul class="plain-list">
              {outcome.error.issues?.map((issue) => (
                <li key={issue.path}>
                  <code>{issue.path}</code> {issue.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
      {answer.writes.length > 0 ? (
        <ul class="plain-list small run-writes-list" aria-label="Documents written">
          {answer.writes.map((write, index) => (
            <li key={`${write.id}-${index}`}>
              <span class="badge">{write.op}</span> <span class="mono">{write.table}</span>{" "}
              <span class="mono">{write.id}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
