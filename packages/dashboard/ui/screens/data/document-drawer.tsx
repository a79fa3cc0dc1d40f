import { Fragment } from "preact";
import { useState } from "preact/hooks";
import type { StudioDocument, TableInfo } from "../../api/data.ts";
import { CopyButton } from "../../components/copy-button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { DocumentIdLink } from "../../components/document-id-link.tsx";
import { UserIdLink } from "../../components/user-id-link.tsx";
import { textsOf, ValueField, valuesOf } from "../../components/value-field.tsx";
import { fieldOfIssue, idTableOf, issuePath, ownFields } from "../../lib/field-values.ts";
import { fieldProblems } from "../../lib/schema-check.ts";
import { changedFields, newInsertKey, type StagedChange } from "./staged-changes.ts";

/** The server's issues by field (`body.title` → `title`), and those about the whole document. */
function problemsOf(change: StagedChange | undefined): {
  byField: Record<string, string>;
  general: string[];
} {
  const byField: Record<string, string> = {};
  const general: string[] = [];
  for (const issue of change?.problem?.issues ?? []) {
    const field = fieldOfIssue(issue.path);
    if (field === null) general.push(`${issuePath(issue.path)}: ${issue.message}`);
    else byField[field] = byField[field] ? `${byField[field]}; ${issue.message}` : issue.message;
  }
  if (change?.problem && change.problem.issues.length === 0) general.push(change.problem.message);
  return { byField, general };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * One document in a drawer: its JSON, and an editor of its fields (a form
 * generated from the table's validators, or the JSON itself). Saving stages
 * the change; nothing is written until the staged changes are reviewed and
 * applied. Each field is checked against the table's validator as it is
 * typed, and a change with a wrong value, or one that changes nothing,
 * cannot be staged. A change the server refused comes back here with each
 * problem beside its field.
 */
export function DocumentDrawer(props: {
  shard: string;
  table: TableInfo;
  document: StudioDocument | null;
  change: StagedChange | undefined;
  onStage: (change: StagedChange) => void;
  onClose: () => void;
}) {
  const { table, document, change } = props;
  const start =
    change !== undefined && change.kind !== "delete"
      ? change.fields
      : document === null
        ? {}
        : ownFields(document);
  const [mode, setMode] = useState<"fields" | "json">("fields");
  const [texts, setTexts] = useState(() => textsOf(table.fields, start));
  const [json, setJson] = useState(() => JSON.stringify(start, null, 2));
  const [jsonProblem, setJsonProblem] = useState<string | null>(null);
  // Fields the operator typed in, and whether staging was tried: their problems show from then on.
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [tried, setTried] = useState(false);
  const [unchanged, setUnchanged] = useState(false);
  const problems = problemsOf(change);

  /** The fields as the active editor has them now; `null` when the JSON does not parse. */
  const shownFields = (): Record<string, unknown> | null => {
    if (mode === "fields") return valuesOf(table.fields, texts);
    try {
      const parsed: unknown = JSON.parse(json);
      return isRecord(parsed) ? parsed : null;
    } catch {
      return null;
    }
  };
  const shown = shownFields();
  const local = shown === null ? {} : fieldProblems(table.fields, shown);
  const localShown = (name: string) => (tried || touched.has(name) ? local[name] : undefined);
  const invalid = Object.keys(local);

  /** The fields as the active editor has them, or null when the JSON does not parse. */
  const currentFields = (): Record<string, unknown> | null => {
    if (mode === "fields") return valuesOf(table.fields, texts);
    try {
      const parsed: unknown = JSON.parse(json);
      if (!isRecord(parsed)) throw new Error("not an object");
      return parsed;
    } catch {
      setJsonProblem("The JSON does not parse as an object of fields.");
      return null;
    }
  };

  const switchTo = (next: "fields" | "json") => {
    if (next === mode) return;
    const fields = currentFields();
    if (fields === null) return;
    setJsonProblem(null);
    if (next === "json") setJson(JSON.stringify(fields, null, 2));
    else setTexts(textsOf(table.fields, fields));
    setMode(next);
  };

  const stageEdit = (event: Event) => {
    event.preventDefault();
    const fields = currentFields();
    if (fields === null) return;
    setTried(true);
    if (Object.keys(fieldProblems(table.fields, fields)).length > 0) return;
    if (document !== null && changedFields(ownFields(document), fields).length === 0) {
      setUnchanged(true);
      return;
    }
    if (document === null) {
      const key = change?.kind === "insert" ? change.key : newInsertKey();
      props.onStage({ kind: "insert", key, fields });
    } else {
      props.onStage({ kind: "replace", key: document._id, before: document, fields });
    }
  };

  const title = document === null ? `New document in ${table.name}` : `${table.name} document`;
  return (
    <Dialog title={title} variant="drawer" onClose={props.onClose}>
      <form class="stack" onSubmit={stageEdit}>
        {document !== null ? (
          <dl class="fields">
            <dt>_id</dt>
            <dd class="mono">
              {document._id} <CopyButton value={document._id} label="Copy id" />
            </dd>
            <dt>_creationTime</dt>
            <dd class="mono">
              {document._creationTime} ({new Date(document._creationTime).toISOString()})
            </dd>
            {table.userFields.map((field) => {
              const id = document[field];
              return typeof id === "string" && id !== "" ? (
                <Fragment key={field}>
                  <dt>{field} (user)</dt>
                  <dd>
                    <UserIdLink id={id} />
                  </dd>
                </Fragment>
              ) : null;
            })}
            {table.fields.map((field) => {
              const target = idTableOf(field.schema);
              const id = document[field.name];
              return target !== null && typeof id === "string" && id !== "" ? (
                <Fragment key={field.name}>
                  <dt>{field.name} (document)</dt>
                  <dd>
                    <DocumentIdLink shard={props.shard} table={target} id={id} />
                  </dd>
                </Fragment>
              ) : null;
            })}
          </dl>
        ) : null}
        {tried && invalid.length > 0 ? (
          <div class="notice notice-error" role="alert">
            <p class="notice-text">
              Fix {invalid.length === 1 ? "this field" : `these ${invalid.length} fields`} before
              staging:
            </p>
            <ul class="notice-issues">
              {invalid.map((name) => (
                <li key={name}>
                  <code>{name}</code> {local[name]}
                </li>
              ))}
            </ul>
          </div>
        ) : unchanged ? (
          <div class="notice notice-error" role="alert">
            <p class="notice-text">Nothing to stage: this change leaves the document as it is.</p>
          </div>
        ) : null}
        {change?.problem ? (
          <div class="notice notice-error" role="alert">
            <p class="notice-text">
              The server refused this change
              {change.problem.issues.length === 0 ? `: ${change.problem.message}` : "."}
            </p>
            {problems.general.length > 0 ? (
              <ul class="notice-issues">
                {problems.general.map((text) => (
                  <li key={text}>{text}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        <div class="tabs" role="tablist" aria-label="Editor">
          <button
            type="button"
            role="tab"
            aria-selected={mode === "fields"}
            class={mode === "fields" ? "tab active" : "tab"}
            onClick={() => switchTo("fields")}
          >
            Fields
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={mode === "json"}
            class={mode === "json" ? "tab active" : "tab"}
            onClick={() => switchTo("json")}
          >
            JSON
          </button>
        </div>
        {mode === "fields" ? (
          <div class="stack" role="tabpanel" aria-label="Fields">
            {table.fields.map((field) => (
              <ValueField
                key={field.name}
                name={field.name}
                schema={field.schema}
                optional={field.optional}
                text={texts[field.name] ?? ""}
                onInput={(text) => {
                  setTexts({ ...texts, [field.name]: text });
                  setTouched(new Set(touched).add(field.name));
                  setUnchanged(false);
                }}
                problem={localShown(field.name) ?? problems.byField[field.name]}
              />
            ))}
          </div>
        ) : (
          <div class="stack" role="tabpanel" aria-label="JSON">
            <label class="field">
              <span class="field-label">
                Fields as JSON (svc's encoding: int64 as {`{"$int64": "…"}`})
              </span>
              <textarea
                class={
                  jsonProblem || change?.problem
                    ? "input input-invalid mono json-editor"
                    : "input mono json-editor"
                }
                rows={14}
                value={json}
                onInput={(event) => {
                  setJson(event.currentTarget.value);
                  setJsonProblem(null);
                  setUnchanged(false);
                }}
                spellcheck={false}
              />
            </label>
            {jsonProblem ? <p class="field-problem">{jsonProblem}</p> : null}
            {(change?.problem?.issues ?? []).length > 0 ? (
              <ul class="field-problem plain-list">
                {change?.problem?.issues.map((issue) => (
                  <li key={issue.path}>
                    <code>{issuePath(issue.path)}</code> {issue.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        )}
        <div class="actions">
          {document !== null ? (
            <button
              type="button"
              class="btn btn-danger-ghost"
              onClick={() => props.onStage({ kind: "delete", key: document._id, before: document })}
            >
              Stage delete
            </button>
          ) : null}
          <button type="button" class="btn" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="btn btn-primary">
            {document === null ? "Stage insert" : "Stage change"}
          </button>
        </div>
        <p class="muted small">
          Staged changes are applied together, as the operator, after you review them.
        </p>
      </form>
    </Dialog>
  );
}
