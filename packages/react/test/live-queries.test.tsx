import { SvcClientError } from "@svc/client";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { Component, type ReactNode, StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { SvcProvider, useAction, useQuery } from "../src/index.ts";
import { api } from "./app/svc/_generated/api.ts";
import { clientFor, userId } from "./harness.ts";

afterEach(cleanup);

function Notes({ label }: { label: string }) {
  const notes = useQuery(api.notes.list, {});
  return (
    <p data-testid={label}>
      {notes === undefined ? "loading" : notes.map((n) => n.text).join(",")}
    </p>
  );
}

function Count() {
  const count = useQuery(api.notes.count, {});
  return <p data-testid="count">{count ?? "loading"}</p>;
}

function Secret() {
  return <p>{String(useQuery(api.notes.secret, {}) ?? "loading")}</p>;
}

let shouted: ((args: { text: string }) => Promise<string>) | undefined;
function Skipped() {
  shouted = useAction(api.notes.shout);
  return <p data-testid="skip">{String(useQuery(api.notes.list, "skip") ?? "nothing")}</p>;
}

class Boundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: undefined as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    const { error } = this.state;
    if (error instanceof SvcClientError)
      return <p role="alert">{`${error.code} ${error.status} ${error.message}`}</p>;
    return this.props.children;
  }
}

describe("useQuery against a real server", () => {
  it("shares one subscription among every component watching the same query, and updates them all", async () => {
    const { client, sent } = clientFor(userId("share"));
    await client.mutation(api.notes.add, { text: "first" });
    render(
      <SvcProvider client={client}>
        <Notes label="a" />
        <Notes label="b" />
        <Notes label="c" />
        <Count />
      </SvcProvider>,
    );
    await waitFor(() => expect(screen.getByTestId("a").textContent).toBe("first"));
    expect(screen.getByTestId("b").textContent).toBe("first");
    await waitFor(() => expect(screen.getByTestId("count").textContent).toBe("1"));
    expect(sent.count("subscribe", "notes:list")).toBe(1);
    expect(sent.count("subscribe", "notes:count")).toBe(1);
    await client.mutation(api.notes.add, { text: "second" });
    await waitFor(() => expect(screen.getByTestId("c").textContent).toBe("second,first"));
    expect(screen.getByTestId("a").textContent).toBe("second,first");
    await waitFor(() => expect(screen.getByTestId("count").textContent).toBe("2"));
    expect(sent.count("subscribe")).toBe(2);
  });

  it("survives StrictMode's double mount with one subscription, and keeps the value for a re-mount", async () => {
    const { client, sent } = clientFor(userId("strict"));
    await client.mutation(api.notes.add, { text: "kept" });
    const tree = (
      <StrictMode>
        <SvcProvider client={client}>
          <Notes label="a" />
        </SvcProvider>
      </StrictMode>
    );
    const first = render(tree);
    await waitFor(() => expect(screen.getByTestId("a").textContent).toBe("kept"));
    expect(sent.count("subscribe")).toBe(1);
    expect(sent.count("unsubscribe")).toBe(0);
    first.unmount();
    // Mounted again within keepAliveMs: the value is there at once, no new subscription.
    render(tree);
    expect(screen.getByTestId("a").textContent).toBe("kept");
    expect(sent.count("subscribe")).toBe(1);
    cleanup();
    // Nobody watches any more: after keepAliveMs (300 ms here) the subscription ends.
    await waitFor(() => expect(sent.count("unsubscribe")).toBe(1));
  });

  it("throws a failing query's SvcClientError, with the problem details, to the error boundary", async () => {
    const { client } = clientFor(userId("error"));
    render(
      <SvcProvider client={client}>
        <Boundary>
          <Secret />
        </Boundary>
      </SvcProvider>,
    );
    expect((await screen.findByRole("alert")).textContent).toBe("FORBIDDEN 403 Not for you.");
  });

  it('watches nothing with "skip", and calls actions with useAction', async () => {
    const { client, sent } = clientFor(userId("skip"));
    render(
      <SvcProvider client={client}>
        <Skipped />
      </SvcProvider>,
    );
    expect(screen.getByTestId("skip").textContent).toBe("nothing");
    expect(await shouted!({ text: "hey" })).toBe("HEY");
    expect(sent.frames).toEqual([]);
  });

  it("renders on the server without connecting (queries wait for the client)", () => {
    const { client, sent } = clientFor(userId("ssr"));
    const html = renderToString(
      <SvcProvider client={client}>
        <Notes label="a" />
      </SvcProvider>,
    );
    expect(html).toContain("loading");
    expect(sent.frames).toEqual([]);
  });

  it("re-runs every live query under new credentials: old rows vanish at once", async () => {
    const [ann, bob] = [userId("ann"), userId("bob")];
    let who = ann;
    const { client } = clientFor(ann, { bearer: () => `user:${who}` });
    await client.mutation(api.notes.add, { text: "ann's" });
    render(
      <SvcProvider client={client}>
        <Notes label="a" />
      </SvcProvider>,
    );
    await waitFor(() => expect(screen.getByTestId("a").textContent).toBe("ann's"));
    who = bob;
    act(() => client.reauthenticate());
    expect(screen.getByTestId("a").textContent).toBe("loading");
    await waitFor(() => expect(screen.getByTestId("a").textContent).toBe(""));
  });
});
