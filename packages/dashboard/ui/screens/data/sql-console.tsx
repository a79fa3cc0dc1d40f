import { useState } from "preact/hooks";
import type { SqlPage } from "../../api/data.ts";
import { useDataApi } from "../../api/use-data-api.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { ErrorNotice } from "../../components/states.tsx";
import { useToast } from "../../components/toasts.tsx";

/** A value of a result cell as text: `NULL` for null, JSON for a blob's tagged form. */
function cellText(value: unknown): string {
  if (value === null) return "NULL";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** What a page says about itself: rows shown, SQLite's counters, whether it was rolled back. */
function pageSummary(page: SqlPage, offset: number): string {
  const shown =
    page.rows.length === 0
      ? "No rows"
      : `Rows ${(offset + 1).toLocaleString("en")}–${(offset + page.rows.length).toLocaleString("en")}`;
  const stopped =
    page.stoppedBy === "rows"
      ? " (more follow)"
      : page.stoppedBy === "size"
        ? " (page full at 1 MiB; more follow)"
        : "";
  const mode = page.readOnly ? "read-only, rolled back" : "committed";
  return `${shown}${stopped} · SQLite read ${page.rowsRead.toLocaleString("en")} and wrote ${page.rowsWritten.toLocaleString("en")} rows · ${mode}`;
}

function ResultTable(props: { page: SqlPage }) {
  const { columns, rows } = props.page;
  if (columns.length === 0) return null;
  return (
    <div class="table-wrap sql-result">
      <table class="table">
        <thead>
          <tr>
            {columns.map((column, index) => (
              // Columns may repeat a name (`SELECT a, a`): the position keys them.
              <th key={index} scope="col" class="mono">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((value, index) => (
                <td key={index} class={value === null ? "sql-cell muted" : "sql-cell"}>
                  {cellText(value)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A SQL console over one shard's SQLite. Read-only by default: the server
 * has SQLite refuse any statement that writes and rolls every read back.
 * Write mode commits, bypassing validators and row-level security, so it
 * asks the operator to type the shard key first; the audit trail records
 * each statement either way.
 */
export function SqlConsole(props: { shard: string; onWritten: () => void }) {
  const data = useDataApi();
  const notify = useToast();
  const [text, setText] = useState("");
  const [write, setWrite] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Error | null>(null);
  const [result, setResult] = useState<{ page: SqlPage; offset: number; sql: string } | null>(null);
  const [confirming, setConfirming] = useState(false);

  const run = async (sql: string, offset: number, asWrite: boolean) => {
    setBusy(true);
    setFailure(null);
    try {
      const page = await data.sql(props.shard, { sql, write: asWrite, offset });
      setResult({ page, offset, sql });
      if (asWrite) {
        notify(`Committed: ${page.rowsWritten.toLocaleString("en")} rows written.`);
        props.onWritten();
      }
    } catch (error) {
      setFailure(error instanceof Error ? error : new Error(String(error)));
      if (asWrite) throw error;
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="sql-console" aria-labelledby="sql-console-title">
      <header class="section-header">
        <h2 id="sql-console-title" class="section-title">
          SQL console
        </h2>
      </header>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          if (busy || text.trim() === "") return;
          if (write) setConfirming(true);
          else void run(text, 0, false);
        }}
      >
        <label class="field">
          <span class="field-label">Statement</span>
          <textarea
            class="input mono sql-input"
            rows={5}
            value={text}
            required
            spellcheck={false}
            placeholder={"SELECT _id, _doc FROM t_messages LIMIT 10"}
            onInput={(event) => setText(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
          />
        </label>
        <p class="muted small">
          One statement. Documents are in <code>t_&lt;table&gt;</code> (<code>_id</code>,{" "}
          <code>_creationTime</code>, <code>_doc</code> as JSON). Read-only unless write mode is on:
          SQLite refuses a statement that writes, and reads are rolled back.
        </p>
        <div class="actions">
          <label class="choice">
            <input
              type="checkbox"
              checked={write}
              onChange={(event) => setWrite(event.currentTarget.checked)}
            />
            <span>Write mode</span>
          </label>
          <button
            type="submit"
            class={write ? "btn btn-danger" : "btn btn-primary"}
            disabled={busy}
          >
            {busy ? "Running…" : write ? "Run and commit…" : "Run read-only"}
          </button>
        </div>
      </form>
      {failure ? <ErrorNotice error={failure} /> : null}
      {result ? (
        <div class="stack">
          <p class="muted small" role="status">
            {pageSummary(result.page, result.offset)}
          </p>
          <ResultTable page={result.page} />
          {result.page.nextOffset !== null && result.page.readOnly ? (
            <div class="actions">
              <button
                type="button"
                class="btn btn-small"
                disabled={busy}
                onClick={() => void run(result.sql, result.page.nextOffset ?? 0, false)}
              >
                Next page
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title="Run this statement and commit?"
          confirmLabel="Run and commit"
          danger
          requireText={props.shard}
          onConfirm={() => run(text, 0, true)}
          onClose={() => setConfirming(false)}
        >
          <p>
            It runs in shard <code>{props.shard}</code> as written, outside the app's validators,
            row-level security and live queries, and commits. The audit trail records it with the
            statement.
          </p>
          <pre class="record-block mono">{text}</pre>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
