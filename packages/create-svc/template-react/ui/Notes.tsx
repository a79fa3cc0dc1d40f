import type { SvcClientError } from "@svc/client";
import { useMutation, useQuery, useScheduledJob, useUploadFile } from "@svc/react";
import type { Id } from "@svc/server";
import { type FormEvent, useState } from "react";
import { api } from "../svc/_generated/api.ts";

const PENDING = "pending:";
/** How long a new note lives, in seconds (`0`: until it is deleted). */
const LIFETIMES = [
  { seconds: 0, label: "Never" },
  { seconds: 10, label: "After 10 seconds" },
  { seconds: 3600, label: "After an hour" },
];

/**
 * A note's self-deletion, watched live (`useScheduledJob`): when it is due
 * and a button to keep the note while its job waits; "Kept" once canceled.
 */
function DeleteTimer({ job, text, onKeep }: { job: string; text: string; onKeep: () => void }) {
  const status = useScheduledJob(job);
  if (status?.state === "pending") {
    const at = new Date(status.dueAt).toLocaleTimeString();
    return (
      <>
        <span className="pending"> (deletes itself at {at})</span>
        <button type="button" aria-label={`Keep note: ${text.slice(0, 40)}`} onClick={onKeep}>
          Keep
        </button>
      </>
    );
  }
  return status?.state === "canceled" ? <span className="pending"> (kept)</span> : null;
}

/**
 * The signed-in user's notes, live: a note added or deleted in another tab
 * shows up here within a moment. Adding and deleting are optimistic: the list
 * changes at once and rolls back, with the server's message, if it refuses.
 * A note may carry a file (svc/attachments.ts): uploaded with a progress bar
 * after the note is saved, then linked from the note.
 */
export function Notes() {
  const notes = useQuery(api.notes.list, {});
  const attachments = useQuery(api.attachments.urls, {});
  const { upload, progress, status, cancel } = useUploadFile(api.attachments.uploadUrl);
  const attach = useMutation(api.attachments.attach);
  const [error, setError] = useState<string | null>(null);
  const addNote = useMutation(api.notes.add).withOptimisticUpdate((store, { text }) => {
    const current = store.getQuery(api.notes.list, {});
    if (current === undefined) return;
    const pending = {
      _id: `${PENDING}${crypto.randomUUID()}` as Id<"notes">,
      _creationTime: Date.now(),
      owner: "",
      text,
    };
    store.setQuery(api.notes.list, {}, [pending, ...current]);
  });
  const removeNote = useMutation(api.notes.remove).withOptimisticUpdate((store, { id }) => {
    const current = store.getQuery(api.notes.list, {});
    if (current)
      store.setQuery(
        api.notes.list,
        {},
        current.filter((note) => note._id !== id),
      );
  });
  const addExpiring = useMutation(api.notes.addExpiring);
  const keepNote = useMutation(api.notes.keep);
  const report = (failure: unknown) => setError((failure as SvcClientError).message);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = String(data.get("text") ?? "");
    const file = data.get("attachment");
    const seconds = Number(data.get("lifetime") ?? 0);
    setError(null);
    form.reset();
    (seconds > 0 ? addExpiring({ text, seconds }) : addNote({ text }))
      .then(async (note) => {
        if (!(file instanceof File) || file.size === 0) return;
        await attach({ note, file: await upload(file) });
      })
      .catch((failure: unknown) => {
        if ((failure as Error).name !== "AbortError") report(failure);
      });
  };

  return (
    <section aria-labelledby="notes-title">
      <h1 id="notes-title">Your notes</h1>
      <form onSubmit={onSubmit}>
        <label>
          New note
          <input name="text" autoComplete="off" />
        </label>
        <label>
          Attachment (optional: an image, PDF or text file up to 5 MB)
          <input name="attachment" type="file" accept="image/*,application/pdf,text/plain" />
        </label>
        <label>
          Deletes itself
          <select name="lifetime" defaultValue="0">
            {LIFETIMES.map(({ seconds, label }) => (
              <option key={seconds} value={seconds}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Add note</button>
      </form>
      {status === "uploading" ? (
        <div className="upload">
          <progress aria-label="Uploading the attachment" max={1} value={progress ?? 0} />
          <span>{Math.round((progress ?? 0) * 100)} %</span>
          <button type="button" onClick={cancel}>
            Cancel upload
          </button>
        </div>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
      {notes === undefined ? (
        <p>Loading…</p>
      ) : notes.length === 0 ? (
        <p>No notes yet.</p>
      ) : (
        <ul aria-label="Notes">
          {notes.map((note) => {
            const pending = note._id.startsWith(PENDING);
            return (
              <li key={note._id} aria-busy={pending}>
                <span>{note.text}</span>
                {attachments?.[note._id] ? (
                  <a
                    className="attachment"
                    href={attachments[note._id]}
                    aria-label={`Attachment of note: ${note.text.slice(0, 40)}`}
                  >
                    Attachment
                  </a>
                ) : null}
                {pending ? (
                  <span className="pending"> (saving…)</span>
                ) : (
                  <button
                    type="button"
                    aria-label={`Delete note: ${note.text.slice(0, 40)}`}
                    onClick={() => removeNote({ id: note._id }).catch(report)}
                  >
                    Delete
                  </button>
                )}
                {note.deleteJob === undefined ? null : (
                  <DeleteTimer
                    job={note.deleteJob}
                    text={note.text}
                    onKeep={() => keepNote({ id: note._id }).catch(report)}
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
