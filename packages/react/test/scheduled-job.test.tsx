import { scheduledJob } from "@svc/client";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SvcProvider, useQuery, useScheduledJob } from "../src/index.ts";
import { api } from "./app/svc/_generated/api.ts";
import { clientFor, userId } from "./harness.ts";

afterEach(cleanup);

/** A note that deletes itself: its text while it exists, and its job's state, live. */
function Expiring({ job }: { job: string }) {
  const status = useScheduledJob(job);
  const notes = useQuery(api.notes.list, {});
  const state = status === undefined ? "loading" : (status?.state ?? "not yours");
  return (
    <p data-testid="expiring">
      {`${state} · ${notes === undefined ? "…" : notes.map((note) => note.text).join(",") || "no notes"}`}
    </p>
  );
}

describe("useScheduledJob against a real server", () => {
  it("shows the job pending, then succeeded once it ran, beside what it did", async () => {
    const { client } = clientFor(userId("job"));
    const { job } = await client.mutation(api.notes.addExpiring, {
      text: "short-lived",
      delayMs: 1_500,
    });
    render(
      <SvcProvider client={client}>
        <Expiring job={job} />
      </SvcProvider>,
    );
    expect(
      await screen.findByText("pending · short-lived", undefined, { timeout: 10_000 }),
    ).toBeDefined();
    expect(
      await screen.findByText("succeeded · no notes", undefined, { timeout: 15_000 }),
    ).toBeDefined();
  });

  it("shows another user nothing of the job", async () => {
    const { client: owner } = clientFor(userId("owner"));
    const { job } = await owner.mutation(api.notes.addExpiring, {
      text: "private",
      delayMs: 60_000,
    });
    const { client: other } = clientFor(userId("other"));
    const seen = await new Promise((resolve) => {
      const stop = other.subscribe(scheduledJob, { id: job }, (value) => {
        stop();
        resolve(value);
      });
    });
    expect(seen).toBeNull();
    const mine = await new Promise((resolve) => {
      const stop = owner.subscribe(scheduledJob, { id: job }, (value) => {
        stop();
        resolve(value);
      });
    });
    expect(mine).toMatchObject({ id: job, function: "notes:expire", state: "pending" });
  });
});
