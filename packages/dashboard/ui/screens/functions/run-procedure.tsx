import { useId, useMemo, useState } from "preact/hooks";
import type { ProcedureInfo, RunAnswer } from "../../api/data.ts";
import { useDataApi } from "../../api/use-data-api.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import {
  type ActAsChoice,
  actAsName,
  RunAsPicker,
  runAsOf,
} from "../../components/run-as-picker.tsx";
import { ErrorNotice } from "../../components/states.tsx";
import { textsOf, ValueField, valuesOf } from "../../components/value-field.tsx";
import { type FieldSchema, fieldOfIssue } from "../../lib/field-values.ts";
import { useLoad } from "../../lib/use-load.ts";
import { RunResult } from "./run-result.tsx";

/** The arguments of a procedure as form fields, from its `.input()` validators. */
function argumentFields(
  info: ProcedureInfo,
): { name: string; schema: FieldSchema; optional: boolean }[] {
  const properties = info.args.properties;
  const required = Array.isArray(info.args.required) ? info.args.required : [];
  if (properties === null || typeof properties !== "object") return [];
  return Object.entries(properties as Record<string, FieldSchema>).map(([name, schema]) => ({
    name,
    schema,
    optional: !required.includes(name),
  }));
}

/**
 * Runs the chosen procedure in a shard as a user, anonymously or as the
 * service, with arguments typed into a form generated from its validators.
 * A mutation or an action writes data: it is marked, and runs only after an
 * explicit confirmation. The answer (value or error), how long it took and
 * the documents it wrote show below; invalid arguments are marked beside
 * their fields.
 */
export function RunProcedure(props: { info: ProcedureInfo; shard: string }) {
  const data = useDataApi();
  const { info } = props;
  const fields = useMemo(() => argumentFields(info), [info]);
  const shardsId = useId();
  const shards = useLoad((signal) => data.shards({ limit: 50 }, signal), []);
  const [shard, setShard] = useState(props.shard || "default");
  const [runAs, setRunAs] = useState<ActAsChoice>({ kind: "user", user: "", token: "" });
  const [texts, setTexts] = useState(() => textsOf(fields, {}));
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<RunAnswer | null>(null);
  const [failure, setFailure] = useState<Error | null>(null);
  const writes = info.kind === "mutation" || info.kind === "action";

  const run = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const as = runAsOf(runAs) ?? { kind: "anonymous" as const };
      setAnswer(
        await data.run(shard.trim(), { path: info.path, args: valuesOf(fields, texts), as }),
      );
    } catch (error) {
      setAnswer(null);
      setFailure(error instanceof Error ? error : new Error(String(error)));
    } finally {
      setBusy(false);
    }
  };

  const problems: Record<string, string> = {};
  if (answer !== null && !answer.outcome.ok) {
    for (const issue of answer.outcome.error.issues ?? []) {
      const field = fieldOfIssue(issue.path);
      if (field !== null) problems[field] = issue.message;
    }
  }

  if (info.kind === "stream") {
    return (
      <p class="notice notice-info">
        Stream procedures answer over a connection that stays open; run them from a client.
      </p>
    );
  }
  return (
    <section class="run-procedure" aria-labelledby={`${shardsId}-title`}>
      <h3 id={`${shardsId}-title`}>Run</h3>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          if (busy) return;
          if (writes) setConfirming(true);
          else void run();
        }}
      >
        <div class="filters">
          <label class="field">
            <span class="field-label">Shard key</span>
            <input
              class="input mono"
              value={shard}
              required
              list={shardsId}
              onInput={(event) => setShard(event.currentTarget.value)}
              autocomplete="off"
              spellcheck={false}
            />
            <datalist id={shardsId}>
              {(shards.data?.shards ?? []).map((entry) => (
                <option key={entry.key} value={entry.key} />
              ))}
            </datalist>
          </label>
          <RunAsPicker
            label="Run as"
            choice={runAs}
            onChange={setRunAs}
            kinds={["user", "anonymous", "service"]}
          />
        </div>
        {fields.length === 0 ? (
          <p class="muted small">This procedure takes no arguments.</p>
        ) : (
          <fieldset class="stack run-arguments">
            <legend class="field-label">Arguments</legend>
            {fields.map((field) => (
              <ValueField
                key={field.name}
                name={field.name}
                schema={field.schema}
                optional={field.optional}
                text={texts[field.name] ?? ""}
                onInput={(text) => setTexts({ ...texts, [field.name]: text })}
                problem={problems[field.name]}
              />
            ))}
          </fieldset>
        )}
        <div class="actions">
          {writes ? (
            <span class="badge badge-warn run-writes">Writes data: asks for confirmation</span>
          ) : null}
          <button
            type="submit"
            class={writes ? "btn btn-danger" : "btn btn-primary"}
            disabled={busy}
          >
            {busy ? "Running…" : writes ? `Run ${info.kind}…` : "Run query"}
          </button>
        </div>
      </form>
      {failure ? <ErrorNotice error={failure} /> : null}
      {answer ? <RunResult answer={answer} /> : null}
      {confirming ? (
        <ConfirmDialog
          title={`Run ${info.path}?`}
          confirmLabel={`Run ${info.kind}`}
          danger
          onConfirm={run}
          onClose={() => setConfirming(false)}
        >
          <p>
            This {info.kind} may write to shard <code>{shard}</code>, running as{" "}
            <strong>{actAsName(runAs)}</strong>. Its writes are real and the run is recorded in the
            audit trail.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
