import { createClient } from "@svc/client";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { type ReactMutation, SvcProvider, useMutation, useQuery } from "../src/index.ts";
import { api } from "./app/svc/_generated/api.ts";
import { ScriptedServer } from "./scripted-server.ts";

afterEach(cleanup);

type Note = { _id: string; text: string };
const rendered: string[] = [];
let addNote: ReactMutation<typeof api.notes.add> | undefined;

function Notes() {
  const notes = useQuery(api.notes.list, {}) as Note[] | undefined;
  addNote = useMutation(api.notes.add).withOptimisticUpdate((store, { text }) => {
    const current = store.getQuery(api.notes.list, {}) as Note[] | undefined;
    if (current)
      store.setQuery(api.notes.list, {}, [{ _id: `tmp-${text}`, text }, ...current] as never);
  });
  const shown = notes
    ?.map((note) => (note._id.startsWith("tmp-") ? `${note.text}*` : note.text))
    .join(",");
  if (shown !== undefined) rendered.push(shown);
  return <p data-testid="notes">{shown ?? "loading"}</p>;
}

const shown = () => screen.getByTestId("notes").textContent;
const real = (...texts: string[]) => texts.map((text) => ({ _id: `id-${text}`, text }));

describe("optimistic updates when the server's frames arrive out of order (scripted server)", () => {
  it("rebase on every push, skip per query what a push already includes, and never show a note twice", async () => {
    const server = new ScriptedServer();
    const client = createClient({
      url: "http://svc.test",
      WebSocket: server.WebSocket,
      fetch: server.fetch,
    });
    render(
      <SvcProvider client={client}>
        <Notes />
      </SvcProvider>,
    );
    await waitFor(() => expect(server.subscriptions.has("notes:list")).toBe(true));
    act(() => server.push("notes:list", []));
    expect(shown()).toBe("");

    const results: Promise<unknown>[] = [];
    act(() => {
      results.push(addNote!({ text: "a" }), addNote!({ text: "b" }));
    });
    expect(shown()).toBe("b*,a*");
    const [m1, m2] = server.mutations.map((mutation) => mutation.id);
    expect(m1).toMatch(/:1$/);
    expect(m2).toMatch(/:2$/);

    // Someone else's note arrives first: both predictions rebase onto it.
    act(() => server.push("notes:list", real("x")));
    expect(shown()).toBe("b*,a*,x");
    // The shard committed b before a: a push that includes b only.
    act(() => server.push("notes:list", real("b", "x"), [m2!]));
    expect(shown()).toBe("a*,b,x");
    // `applied` for b arrives before b's own HTTP answer.
    act(() => server.applied(m2!));
    expect(shown()).toBe("a*,b,x");
    await act(async () => {
      server.mutations[1]!.answer("id-b");
      await results[1];
    });
    expect(shown()).toBe("a*,b,x");
    // Then a's push, a's answer, and a's `applied` last.
    act(() => server.push("notes:list", real("a", "b", "x"), [m1!]));
    expect(shown()).toBe("a,b,x");
    await act(async () => {
      server.mutations[0]!.answer("id-a");
      await results[0];
    });
    act(() => server.applied(m1!));
    expect(shown()).toBe("a,b,x");
    for (const list of rendered) {
      const texts = list.split(",").map((text) => text.replace("*", ""));
      expect(new Set(texts).size).toBe(texts.length);
    }
  });

  it("drop a prediction the moment its mutation fails, keeping the others", async () => {
    const server = new ScriptedServer();
    const client = createClient({
      url: "http://svc.test",
      WebSocket: server.WebSocket,
      fetch: server.fetch,
    });
    render(
      <SvcProvider client={client}>
        <Notes />
      </SvcProvider>,
    );
    await waitFor(() => expect(server.subscriptions.has("notes:list")).toBe(true));
    act(() => server.push("notes:list", real("x")));
    const results: Promise<unknown>[] = [];
    act(() => {
      results.push(addNote!({ text: "a" }).catch((error: unknown) => error));
      results.push(addNote!({ text: "b" }));
    });
    expect(shown()).toBe("b*,a*,x");
    const problem = {
      type: "about:blank",
      title: "Forbidden",
      status: 403,
      code: "FORBIDDEN",
      detail: "No.",
    };
    const failure = await act(async () => {
      server.mutations[0]!.answer(problem, 403);
      return results[0];
    });
    expect(failure).toMatchObject({ code: "FORBIDDEN", message: "No." });
    expect(shown()).toBe("b*,x");
  });
});
