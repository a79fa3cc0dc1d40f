import type { SvcClientError } from "@svc/client";
import { useMutation, useQuery } from "@svc/react";
import type { Id } from "@svc/server";
import { type FormEvent, useState } from "react";
import { api } from "../svc/_generated/api.ts";

const PENDING = "pending:";

/**
 * The signed-in user's notes, live: a note added or deleted in another tab
 * shows up here within a moment. Adding and deleting are optimistic: the list
 * changes at once and rolls back, with the server's message, if it refuses.
 */
export function Notes() {
  const notes = useQuery(api.notes.list, {});
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
  const report = (failure: unknown) => setError((failure as SvcClientError).message);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const text = String(new FormData(form).get("text") ?? "");
    setError(null);
    form.reset();
    addNote({ text }).catch(report);
  };

  return (
    <section aria-labelledby="notes-title">
      <h1 id="notes-title">Your notes</h1>
      <form onSubmit={onSubmit}>
        <label>
          New note
          <input name="text" autoComplete="off" />
        </label>
        <button type="submit">Add note</button>
      </form>
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
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
