import { useState } from "preact/hooks";
import { ApiError } from "../../api/client.ts";
import type { TableInfo } from "../../api/data.ts";
import { useDataApi } from "../../api/use-data-api.ts";
import { Dialog } from "../../components/dialog.tsx";
import { ErrorNotice } from "../../components/states.tsx";
import { cellText, issuePath, ownFields } from "../../lib/field-values.ts";
import { changedFields, type StagedChange } from "./staged-changes.ts";

function Value(props: { value: unknown }) {
  return props.value === undefined ? (
    <span class="muted">left out</span>
  ) : (
    <code class="diff-value">{cellText(props.value)}</code>
  );
}

/** What one staged change will do, field by field. */
function ChangeSummary(props: { change: StagedChange }) {
  const { change } = props;
  if (change.kind === "delete") {
    return <p class="small">Deletes the document.</p>;
  }
  const before = change.kind === "replace" ? ownFields(change.before) : {};
  const names = changedFields(before, change.fields);
  if (names.length === 0) return <p class="small muted">No field changes.</p>;
  return (
    <dl class="diff">
      {names.map((name) => (
        <div key={name} class="diff-row">
          <dt class="mono">{name}</dt>
          <dd>
            {change.kind === "replace" ? (
              <>
                <Value value={before[name]} /> <span aria-hidden="true">→</span>
                <span class="sr-only">becomes</span>{" "}
              </>
            ) : null}
            <Value value={change.fields[name]} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

const LABEL: Record<StagedChange["kind"], string> = {
  insert: "Insert",
  replace: "Replace",
  delete: "Delete",
};

/**
 * The staged changes, reviewed before any is written: what each does, field
 * by field. "Apply" sends them one by one (each is its own transaction,
 * validated against the schema and audited); the first refusal stops there
 * and stays staged with the server's answer, its fields marked in the editor.
 */
export function ReviewDialog(props: {
  shard: string;
  table: TableInfo;
  staged: StagedChange[];
  onStagedChange: (staged: StagedChange[]) => void;
  onEdit: (change: StagedChange) => void;
  onApplied: (count: number) => void;
  onClose: () => void;
}) {
  const data = useDataApi();
  const { shard, table, staged } = props;
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Error | null>(null);

  const write = async (change: StagedChange) => {
    if (change.kind === "insert") await data.insert(shard, table.name, change.fields);
    else if (change.kind === "replace")
      await data.replace(shard, table.name, change.key, change.fields);
    else await data.remove(shard, table.name, change.key);
  };

  const apply = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(null);
    let remaining = [...staged];
    let applied = 0;
    try {
      for (const change of staged) {
        try {
          await write(change);
        } catch (error) {
          const thrown = error instanceof Error ? error : new Error(String(error));
          const problem = {
            message: thrown.message,
            issues: thrown instanceof ApiError ? thrown.issues : [],
          };
          remaining = remaining.map((item) =>
            item.key === change.key ? { ...item, problem } : item,
          );
          setFailure(thrown);
          return;
        }
        applied += 1;
        remaining = remaining.filter((item) => item.key !== change.key);
      }
    } finally {
      props.onStagedChange(remaining);
      if (applied > 0) props.onApplied(applied);
      setBusy(false);
    }
    props.onClose();
  };

  return (
    <Dialog
      title={`Review ${staged.length} staged ${staged.length === 1 ? "change" : "changes"}`}
      onClose={props.onClose}
    >
      <form class="stack" onSubmit={apply}>
        <p class="muted small">
          In shard <code>{shard}</code>, table <code>{table.name}</code>, as the operator. Each
          change is validated against the schema and recorded in the audit trail with the document
          before and after.
        </p>
        <ol class="review-list">
          {staged.map((change) => (
            <li
              key={change.key}
              class={change.problem ? "review-item review-failed" : "review-item"}
            >
              <div class="review-head">
                <span
                  class={change.kind === "delete" ? "badge badge-danger" : "badge badge-accent"}
                >
                  {LABEL[change.kind]}
                </span>
                <span class="mono small">
                  {change.kind === "insert" ? "new document" : change.key}
                </span>
                <span class="actions">
                  {change.kind !== "delete" ? (
                    <button
                      type="button"
                      class="btn btn-small btn-ghost"
                      onClick={() => props.onEdit(change)}
                    >
                      Edit
                    </button>
                  ) : null}
                  <button
                    type="button"
                    class="btn btn-small btn-ghost"
                    onClick={() =>
                      props.onStagedChange(staged.filter((item) => item.key !== change.key))
                    }
                  >
                    Unstage
                  </button>
                </span>
              </div>
              <ChangeSummary change={change} />
              {change.problem ? (
                <div class="field-problem" role="alert">
                  {change.problem.issues.length === 0 ? <p>{change.problem.message}</p> : null}
                  {change.problem.issues.length > 0 ? (
                    <ul class="plain-list">
                      {change.problem.issues.map((issue) => (
                        <li key={issue.path}>
                          <code>{issuePath(issue.path)}</code> {issue.message}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </div>
              ) : null}
            </li>
          ))}
        </ol>
        {failure && !(failure instanceof ApiError && failure.issues.length > 0) ? (
          <ErrorNotice error={failure} compact />
        ) : null}
        <div class="actions">
          <button type="button" class="btn" onClick={props.onClose}>
            Close
          </button>
          <button type="submit" class="btn btn-primary" disabled={busy || staged.length === 0}>
            {busy
              ? "Applying…"
              : `Apply ${staged.length} ${staged.length === 1 ? "change" : "changes"}`}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
