import { useEffect, useRef, useState } from "preact/hooks";
import type { ExportQuery } from "../../api/types.ts";
import { useApp } from "../../app-context.ts";
import { Dialog } from "../../components/dialog.tsx";
import { ProgressMeter } from "../../components/progress-meter.tsx";
import { ErrorNotice } from "../../components/states.tsx";
import { exportFileName, readExport, saveFile } from "../../lib/export-download.ts";
import { formatBytes } from "../../lib/format.ts";
import type { UserFilters } from "../../lib/routes.ts";

type Format = NonNullable<ExportQuery["format"]>;

type Step =
  | { kind: "choose"; error: Error | null; canceled: boolean }
  | { kind: "running"; rows: number; bytes: number }
  | { kind: "saved"; name: string; rows: number; bytes: number };

/**
 * Exports the users the list shows (its search, role and banned filters)
 * as CSV or JSON. The file streams through `fetch` (the admin token is a
 * header, so no plain link can download it) with progress and Cancel, and is
 * saved as `users-<date>.<format>`. Password hashes are opt-in, with a plain
 * warning: the audit trail records the choice.
 *
 * @example
 * ```tsx
 * <ExportDialog filters={filters} total={page.data?.total} onClose={() => setTransfer(null)} />
 * ```
 */
export function ExportDialog(props: {
  filters: UserFilters;
  /** The list's `total` for these filters, when loaded: the progress bar's end. */
  total: number | undefined;
  onClose: () => void;
}) {
  const { api } = useApp();
  const [format, setFormat] = useState<Format>("csv");
  const [hashes, setHashes] = useState(false);
  const [step, setStep] = useState<Step>({ kind: "choose", error: null, canceled: false });
  const running = useRef<AbortController | null>(null);
  // The control each step puts the focus on, since the one that had it is gone.
  const target = useRef<HTMLElement | null>(null);
  const focusHere = (element: HTMLElement | null) => {
    if (element !== null) target.current = element;
  };
  const { filters, total } = props;

  // Closing the dialog mid-download ends the request.
  useEffect(() => () => running.current?.abort(), []);
  useEffect(() => target.current?.focus(), [step.kind]);

  const start = async (event: Event) => {
    event.preventDefault();
    const controller = new AbortController();
    running.current = controller;
    setStep({ kind: "running", rows: 0, bytes: 0 });
    const query: ExportQuery = {
      format,
      search: filters.search.trim(),
      role: filters.role,
      ...(filters.banned === "" ? {} : { banned: filters.banned === "true" }),
      ...(hashes ? { passwordHashes: true } : {}),
    };
    try {
      const response = await api.exportUsers({ query, signal: controller.signal });
      const file = await readExport(response, format, ({ rows, bytes }) => {
        if (!controller.signal.aborted) setStep({ kind: "running", rows, bytes });
      });
      const name = exportFileName(format);
      saveFile(file.blob, name);
      setStep({ kind: "saved", name, rows: file.rows, bytes: file.bytes });
    } catch (thrown) {
      if (controller.signal.aborted) {
        setStep({ kind: "choose", error: null, canceled: true });
        return;
      }
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      setStep({ kind: "choose", error: readable(error), canceled: false });
    } finally {
      running.current = null;
    }
  };

  return (
    <Dialog
      title="Export users"
      onClose={props.onClose}
      onDismissAttempt={step.kind === "running" ? () => running.current?.abort() : undefined}
    >
      {step.kind === "running" ? (
        <div class="stack">
          <ProgressMeter
            label="Exporting users"
            value={step.rows}
            max={total}
            text={`${step.rows.toLocaleString("en")}${total === undefined ? "" : ` of ${total.toLocaleString("en")}`} users · ${formatBytes(step.bytes)}`}
          />
          <div class="actions">
            <button
              type="button"
              class="btn"
              ref={focusHere}
              onClick={() => running.current?.abort()}
            >
              Cancel export
            </button>
          </div>
        </div>
      ) : step.kind === "saved" ? (
        <div class="stack">
          <p class="transfer-result" ref={focusHere} tabIndex={-1}>
            Saved <strong>{step.name}</strong>: {step.rows.toLocaleString("en")}{" "}
            {step.rows === 1 ? "user" : "users"}, {formatBytes(step.bytes)}.
          </p>
          <p class="muted small">
            The file is in your browser's downloads. Treat it as personal data
            {hashes ? ", and it holds password hashes: keep it somewhere safe" : ""}.
          </p>
          <div class="actions">
            <button type="button" class="btn btn-primary" onClick={props.onClose}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <form class="stack" onSubmit={start}>
          <fieldset class="choices">
            <legend class="field-label">Format</legend>
            {(["csv", "json"] as const).map((option) => (
              <label key={option} class="choice">
                <input
                  type="radio"
                  name="format"
                  value={option}
                  checked={format === option}
                  onChange={() => setFormat(option)}
                />
                <span>{option === "csv" ? "CSV (spreadsheets)" : "JSON"}</span>
              </label>
            ))}
          </fieldset>
          <p class="field-hint">{filterSummary(filters, total)}</p>
          <label class="choice choice-check">
            <input
              type="checkbox"
              name="passwordHashes"
              checked={hashes}
              onChange={(event) => setHashes(event.currentTarget.checked)}
            />
            <span>Include password hashes</span>
          </label>
          {hashes ? (
            <p class="notice notice-danger notice-compact">
              With the hashes, whoever holds this file can move these users to another app where
              they sign in with their current passwords. Export them only to import them elsewhere.
              The audit trail records that this export included them.
            </p>
          ) : null}
          {step.canceled ? (
            <p class="notice notice-info notice-compact" role="status">
              Export canceled. Nothing was saved.
            </p>
          ) : null}
          {step.error ? <ErrorNotice error={step.error} compact /> : null}
          <div class="actions">
            <button type="button" class="btn" onClick={props.onClose}>
              Cancel
            </button>
            <button type="submit" class="btn btn-primary" ref={focusHere} autofocus>
              Export {format.toUpperCase()}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** Which users the export holds, in words: the list's filters, or everyone. */
function filterSummary(filters: UserFilters, total: number | undefined): string {
  const parts = [
    filters.search.trim() === "" ? null : `matching "${filters.search.trim()}"`,
    filters.role === "" ? null : `with the role ${filters.role}`,
    filters.banned === "" ? null : filters.banned === "true" ? "banned" : "not banned",
  ].filter((part) => part !== null);
  const count = total === undefined ? "" : ` (${total.toLocaleString("en")})`;
  return parts.length === 0
    ? `Every user${count}, oldest first. Filter the list first to export fewer.`
    : `The users the list shows${count}: ${parts.join(", ")}. Oldest first.`;
}

/** A stream that broke mid-way says so in words, not as a browser's TypeError. */
function readable(error: Error): Error {
  if (error.name !== "TypeError") return error;
  return new Error(
    "The download broke off before the end, so nothing was saved. Check the connection and export again.",
  );
}
