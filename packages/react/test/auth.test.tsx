import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { useSyncExternalStore } from "react";
import { afterEach, describe, expect, it } from "vitest";
import {
  Authenticated,
  AuthLoading,
  type BetterAuthReactClient,
  SvcProvider,
  Unauthenticated,
  useQuery,
} from "../src/index.ts";
import { api } from "./app/svc/_generated/api.ts";
import { clientFor, userId } from "./harness.ts";

afterEach(cleanup);

type Session = ReturnType<BetterAuthReactClient["useSession"]>;

/**
 * A session source shaped like better-auth's `useSession` (a store React
 * subscribes to). The real better-auth React client runs against the React
 * template in Chromium (packages/create-svc/test/browser); here the test
 * decides when the session changes.
 */
function sessionSource(initial: Session) {
  let current = initial;
  const listeners = new Set<() => void>();
  const authClient: BetterAuthReactClient = {
    useSession: () =>
      useSyncExternalStore(
        (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        () => current,
      ),
  };
  const set = (next: Session) => {
    current = next;
    for (const listener of listeners) listener();
  };
  return { authClient, set };
}

function Notes() {
  const notes = useQuery(api.notes.list, {});
  return <p data-testid="notes">{notes?.map((note) => note.text).join(",") ?? "loading"}</p>;
}

describe("the better-auth bridge", () => {
  it("re-runs every live query when the session changes, and says who is signed in", async () => {
    const [ann, bob] = [userId("ann"), userId("bob")];
    let who = ann;
    const { client, sent } = clientFor(ann, { bearer: () => `user:${who}` });
    await client.mutation(api.notes.add, { text: "ann's note" });
    const session = (user: string): Session => ({
      data: { session: { id: `session-${user}` }, user: { id: user } },
      isPending: false,
    });
    const { authClient, set } = sessionSource({ data: null, isPending: true });
    render(
      <SvcProvider client={client} authClient={authClient}>
        <AuthLoading>
          <p>reading the session</p>
        </AuthLoading>
        <Unauthenticated>
          <p>signed out</p>
        </Unauthenticated>
        <Notes />
        <Authenticated>
          <p>signed in</p>
        </Authenticated>
      </SvcProvider>,
    );
    expect(screen.getByText("reading the session")).toBeTruthy();
    act(() => set(session(ann)));
    expect(screen.getByText("signed in")).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId("notes").textContent).toBe("ann's note"));
    const subscribed = sent.count("subscribe");
    // Sign-out: the next socket is anonymous, and ann's rows leave the screen at once.
    who = "nobody";
    act(() => set({ data: null, isPending: false }));
    expect(screen.getByText("signed out")).toBeTruthy();
    expect(screen.getByTestId("notes").textContent).toBe("loading");
    await waitFor(() => expect(screen.getByTestId("notes").textContent).toBe(""));
    expect(sent.count("subscribe")).toBe(subscribed + 1);
    who = bob;
    act(() => set(session(bob)));
    await waitFor(() => expect(sent.count("subscribe")).toBe(subscribed + 2));
    await waitFor(() => expect(screen.getByTestId("notes").textContent).toBe(""));
    expect(screen.getByText("signed in")).toBeTruthy();
  });
});
