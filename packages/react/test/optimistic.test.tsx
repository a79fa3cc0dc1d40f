import { SvcClientError } from "@svc/client";
import type { Id } from "@svc/server";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { type ReactMutation, SvcProvider, useMutation, useQuery } from "../src/index.ts";
import { api } from "./app/svc/_generated/api.ts";
import { clientFor, userId } from "./harness.ts";

afterEach(cleanup);

/** Every list the component rendered, to check that no render ever showed a note twice. */
const rendered: string[][] = [];
let addNote: ReactMutation<typeof api.notes.add> | undefined;

function Notes() {
  const notes = useQuery(api.notes.list, {});
  addNote = useMutation(api.notes.add).withOptimisticUpdate((store, args) => {
    const current = store.getQuery(api.notes.list, {});
    if (current === undefined) return;
    const optimistic = {
      _id: "optimistic" as Id<"notes">,
      _creationTime: Date.now(),
      owner: "me",
      text: args.text,
    };
    store.setQuery(api.notes.list, {}, [optimistic, ...current]);
  });
  const texts = notes?.map((note) => (note._id === "optimistic" ? `${note.text}*` : note.text));
  if (texts) rendered.push(texts);
  return <p data-testid="notes">{texts?.join(",") ?? "loading"}</p>;
}

const shown = () => screen.getByTestId("notes").textContent;

describe("optimistic updates against a real server", () => {
  it("show the note before the server answers, then the server's, never twice", async () => {
    const { client } = clientFor(userId("opt"));
    render(
      <SvcProvider client={client}>
        <Notes />
      </SvcProvider>,
    );
    await waitFor(() => expect(shown()).toBe(""));
    let done: Promise<unknown> | undefined;
    act(() => {
      done = addNote!({ text: "hello", delayMs: 400 });
    });
    // The server holds its answer 400 ms: what shows now is the prediction (marked *).
    expect(shown()).toBe("hello*");
    await act(async () => {
      await done;
    });
    await waitFor(() => expect(shown()).toBe("hello"));
    for (const list of rendered)
      expect(list.filter((text) => text.startsWith("hello")).length).toBeLessThanOrEqual(1);
  });

  it("roll back when the server refuses, and reject with its SvcClientError", async () => {
    const { client } = clientFor(userId("refused"));
    render(
      <SvcProvider client={client}>
        <Notes />
      </SvcProvider>,
    );
    await waitFor(() => expect(shown()).toBe(""));
    let failure: unknown;
    act(() => {
      addNote!({ text: "refuse", delayMs: 200 }).catch((error: unknown) => {
        failure = error;
      });
    });
    expect(shown()).toBe("refuse*");
    await waitFor(() => expect(failure).toBeInstanceOf(SvcClientError));
    expect(failure).toMatchObject({
      code: "FORBIDDEN",
      status: 403,
      message: "This note is not allowed.",
    });
    expect(shown()).toBe("");
  });
});
