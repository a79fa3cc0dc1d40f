import type { Id } from "@svc/server";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SvcProvider, usePaginatedQuery } from "../src/index.ts";
import { api } from "./app/svc/_generated/api.ts";
import { clientFor, userId } from "./harness.ts";

afterEach(cleanup);

let more: ((numItems: number) => void) | undefined;

function Pages() {
  const { results, status, loadMore } = usePaginatedQuery(
    api.notes.page,
    {},
    { initialNumItems: 2 },
  );
  more = loadMore;
  return (
    <>
      <p data-testid="rows">{results.map((note) => note.text).join(",")}</p>
      <p data-testid="status">{status}</p>
    </>
  );
}

const rows = () => screen.getByTestId("rows").textContent;
const status = () => screen.getByTestId("status").textContent;

describe("usePaginatedQuery against a real server", () => {
  it("keeps every loaded page live: an insert in page 1 grows it, nothing slips between pages", async () => {
    const { client } = clientFor(userId("pages"));
    const ids: Record<string, Id<"notes">> = {};
    for (const text of ["n1", "n2", "n3", "n4", "n5", "n6"])
      ids[text] = await client.mutation(api.notes.add, { text });
    render(
      <SvcProvider client={client}>
        <Pages />
      </SvcProvider>,
    );
    expect(status()).toBe("LoadingFirstPage");
    await waitFor(() => expect(rows()).toBe("n6,n5"));
    expect(status()).toBe("CanLoadMore");
    act(() => more!(2));
    await waitFor(() => expect(rows()).toBe("n6,n5,n4,n3"));
    // Newest first: n7 lands at the top of page 1, which is pinned and grows instead of
    // pushing n5 into a gap before page 2.
    await client.mutation(api.notes.add, { text: "n7" });
    await waitFor(() => expect(rows()).toBe("n7,n6,n5,n4,n3"));
    // The last page is not pinned: it stays two rows long and takes the next one in.
    await client.mutation(api.notes.remove, { id: ids.n4! });
    await waitFor(() => expect(rows()).toBe("n7,n6,n5,n3,n2"));
    act(() => more!(5));
    await waitFor(() => expect(rows()).toBe("n7,n6,n5,n3,n2,n1"));
    expect(status()).toBe("Exhausted");
  });
});
