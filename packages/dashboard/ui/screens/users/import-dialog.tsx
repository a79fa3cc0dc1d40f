import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { Field } from "../../components/form-parts.tsx";
import { ProgressMeter } from "../../components/progress-meter.tsx";
import { ErrorNotice } from "../../components/states.tsx";
import {
  type ImportFile,
  ImportFileError,
  importChunks,
  readImportFile,
} from "../../lib/import-file.ts";
import { countOutcomes, type RunState, runImport } from "../../lib/import-run.ts";
import { ImportReportView } from "./import-report.tsx";

type Step =
  | { kind: "pick" }
  | { kind: "run"; dryRun: boolean; state: RunState; stopping: boolean }
  | { kind: "ran"; dryRun: boolean; state: RunState };

const count = (value: number) => value.toLocaleString("en");

/**
 * Imports users from a CSV or JSON file (the export's shape). The file is
 * read in the browser and sent in requests of at most 500 users: first
 * always a dry run over all of them, whose report names every row that would
 * be skipped or is invalid; then, on the operator's word, the import itself.
 * Both show progress and stop between requests on Cancel; the final report
 * says exactly which rows landed and which did not.
 *
 * @example
 * ```tsx
 * <ImportDialog onClose={() => setTransfer(null)} onImported={page.reload} />
 * ```
 */
export function ImportDialog(props: { onClose: () => void; onImported: () => void }) {
  const { api } = useApp();
  const [file, setFile] = useState<ImportFile | null>(null);
  const [fileProblem, setFileProblem] = useState<string | undefined>(undefined);
  const [reading, setReading] = useState(false);
  const [step, setStep] = useState<Step>({ kind: "pick" });
  const stop = useRef(false);
  // The control each step puts the focus on, since the one that had it is gone.
  const target = useRef<HTMLElement | null>(null);
  const focusHere = (element: HTMLElement | null) => {
    if (element !== null) target.current = element;
  };
  const chunks = useMemo(() => (file === null ? [] : importChunks(file.rows)), [file]);

  // Closing the dialog mid-run stops it after the request in flight.
  useEffect(
    () => () => {
      stop.current = true;
    },
    [],
  );
  useEffect(() => target.current?.focus(), [step.kind]);

  const pick = async (input: HTMLInputElement) => {
    const picked = input.files?.[0];
    setFile(null);
    setFileProblem(undefined);
    if (picked === undefined) return;
    setReading(true);
    try {
      setFile(await readImportFile(picked));
    } catch (error) {
      setFileProblem(
        error instanceof ImportFileError ? error.message : `${picked.name} could not be read.`,
      );
    } finally {
      setReading(false);
    }
  };

  const run = async (dryRun: boolean) => {
    if (file === null) return;
    stop.current = false;
    const empty: RunState = { done: 0, total: file.rows.length, outcomes: [], stop: null };
    setStep({ kind: "run", dryRun, state: empty, stopping: false });
    const state = await runImport(
      chunks,
      (records) =>
        api.importUsers({
          query: { dryRun: dryRun ? true : undefined },
          body: { type: "application/json", content: records },
        }),
      {
        dryRun,
        shouldStop: () => stop.current,
        onProgress: (progress) =>
          setStep((current) =>
            current.kind === "run" ? { ...current, state: progress } : current,
          ),
      },
    );
    setStep({ kind: "ran", dryRun, state });
    if (!dryRun && countOutcomes(state.outcomes).created > 0) props.onImported();
  };

  const cancel = () => {
    stop.current = true;
    setStep((current) => (current.kind === "run" ? { ...current, stopping: true } : current));
  };

  return (
    <Dialog
      title="Import users"
      onClose={props.onClose}
      onDismissAttempt={step.kind === "run" ? cancel : undefined}
    >
      {step.kind === "pick" || file === null ? (
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void run(true);
          }}
        >
          <Field
            label="File (CSV or JSON)"
            hint="As Export saves it: email and name required; id and passwordHash kept. Up to 50 MB. Every row is checked before anything is imported."
            problem={fileProblem}
          >
            {(control) => (
              <input
                {...control}
                class="input"
                type="file"
                name="file"
                accept=".csv,.json,text/csv,application/json"
                onChange={(event) => void pick(event.currentTarget)}
                ref={focusHere}
                autofocus
              />
            )}
          </Field>
          {file !== null ? (
            <p>
              {file.name}: {count(file.rows.length)} {file.rows.length === 1 ? "user" : "users"},
              sent in {count(chunks.length)} {chunks.length === 1 ? "request" : "requests"}.
            </p>
          ) : null}
          <div class="actions">
            <button type="button" class="btn" onClick={props.onClose}>
              Cancel
            </button>
            <button type="submit" class="btn btn-primary" disabled={file === null || reading}>
              {reading
                ? "Reading…"
                : file === null
                  ? "Check file"
                  : `Check ${count(file.rows.length)} users`}
            </button>
          </div>
        </form>
      ) : step.kind === "run" ? (
        <div class="stack">
          <ProgressMeter
            label={step.dryRun ? "Checking rows" : "Importing users"}
            value={step.state.done}
            max={step.state.total}
            text={progressText(step.dryRun, step.state)}
          />
          <div class="actions">
            <button
              type="button"
              class="btn"
              ref={focusHere}
              onClick={cancel}
              // Not disabled: a disabled button would drop the focus to the page.
              aria-disabled={step.stopping ? true : undefined}
            >
              {step.stopping ? "Stopping after this request…" : "Cancel"}
            </button>
          </div>
        </div>
      ) : (
        <div class="stack">
          <p class="transfer-result" ref={focusHere} tabIndex={-1}>
            {resultText(step.dryRun, step.state, file)}
          </p>
          {step.state.stop?.kind === "failed" ? (
            <ErrorNotice error={step.state.stop.error} compact />
          ) : null}
          <ImportReportView
            outcomes={step.state.outcomes}
            dryRun={step.dryRun}
            fileName={file.name}
          />
          <div class="actions">
            {step.dryRun ? (
              <>
                <button
                  type="button"
                  class="btn"
                  onClick={() => {
                    setFile(null);
                    setStep({ kind: "pick" });
                  }}
                >
                  Choose another file
                </button>
                {step.state.stop === null ? (
                  countOutcomes(step.state.outcomes).valid > 0 ? (
                    <button type="button" class="btn btn-primary" onClick={() => void run(false)}>
                      Import {count(countOutcomes(step.state.outcomes).valid)} users
                    </button>
                  ) : null
                ) : (
                  <button type="button" class="btn btn-primary" onClick={() => void run(true)}>
                    Check again
                  </button>
                )}
              </>
            ) : (
              <button type="button" class="btn btn-primary" onClick={props.onClose}>
                Done
              </button>
            )}
          </div>
        </div>
      )}
    </Dialog>
  );
}

function progressText(dryRun: boolean, state: RunState): string {
  if (dryRun) return `Checking ${count(state.done)} of ${count(state.total)} rows`;
  const created = countOutcomes(state.outcomes).created;
  return `Imported ${count(state.done)} of ${count(state.total)} rows · ${count(created)} ${created === 1 ? "user" : "users"} created`;
}

/** The run's end in one sentence: what landed, and what did not. */
function resultText(dryRun: boolean, state: RunState, file: ImportFile): string {
  const { created, valid } = countOutcomes(state.outcomes);
  const { stop, done, total } = state;
  const users = (value: number) => `${count(value)} ${value === 1 ? "user" : "users"}`;
  if (dryRun) {
    return stop === null
      ? `Checked ${count(total)} rows of ${file.name}: ${valid === 0 ? "none" : users(valid)} can be imported.`
      : `Check stopped after ${count(done)} of ${count(total)} rows. Nothing was imported.`;
  }
  if (stop === null) return `Imported ${file.name}: ${users(created)} created.`;
  // Rows never sent: after the failed request, or from the first unanswered one.
  const sent = done + (stop.kind === "failed" ? stop.rows.count : 0);
  const next = file.rows[sent]?.row;
  const failed =
    stop.kind === "failed"
      ? ` Rows ${count(stop.rows.first)}–${count(stop.rows.last)} ${stop.uncertain ? "got no answer: they may or may not have landed" : "were refused: none of them landed"}.`
      : "";
  const unsent = next === undefined ? "" : ` Rows from ${count(next)} on were not sent.`;
  return `Import ${stop.kind === "failed" ? "stopped" : "canceled"} after ${count(done)} of ${count(total)} rows: ${users(created)} created.${failed}${unsent} Import the file again to finish (existing users are skipped).`;
}
