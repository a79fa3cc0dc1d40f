import type { Id } from "@svc/server";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SvcProvider, type UploadFileState, useUploadFile } from "../src/index.ts";
import { api } from "./app/svc/_generated/api.ts";
import { clientFor, userId } from "./harness.ts";

afterEach(cleanup);

let uploader: UploadFileState | undefined;

function Uploader() {
  uploader = useUploadFile(api.files.uploadUrl);
  return (
    <p data-testid="upload">
      {uploader.status} {uploader.progress ?? "-"}
    </p>
  );
}

const shown = () => screen.getByTestId("upload").textContent;

function renderUploader(user: string) {
  const { client } = clientFor(user);
  render(
    <SvcProvider client={client}>
      <Uploader />
    </SvcProvider>,
  );
  return client;
}

describe("useUploadFile against a real server", () => {
  it("uploads through the mutation's URL, with progress to 1, and answers the storage id", async () => {
    const client = renderUploader(userId("upload"));
    expect(shown()).toBe("idle -");
    const bytes = new Uint8Array(200_000).map((_, i) => i % 251);
    let storageId: Id<"_storage"> | undefined;
    await act(async () => {
      storageId = await uploader!.upload(new Blob([bytes], { type: "image/png" }));
    });
    expect(storageId).toMatch(/^_storage_[0-9a-z]{26}$/);
    expect(shown()).toBe("done 1");
    const metadata = await client.query(api.files.metadata, { file: storageId! });
    expect(metadata).toMatchObject({ size: 200_000, contentType: "image/png" });
  });

  it("reports a refused upload as failed with the server's code", async () => {
    renderUploader(userId("refused"));
    let error: unknown;
    await act(async () => {
      error = await uploader!.upload(new Blob([new Uint8Array(1024 * 1024 + 1)])).catch((e) => e);
    });
    expect(error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", data: { reason: "too_large" } });
    await waitFor(() => expect(shown()).toBe("failed 0"));
    expect(uploader!.error).toBe(error);
  });

  it("cancels an upload under way", async () => {
    renderUploader(userId("cancel"));
    let done: Promise<unknown> | undefined;
    act(() => {
      done = uploader!.upload(new Blob([new Uint8Array(512 * 1024)])).catch((e) => e);
      uploader!.cancel();
    });
    let error: unknown;
    await act(async () => {
      error = await done;
    });
    expect(error).toMatchObject({ name: "AbortError" });
    expect(shown()).toBe("cancelled 0");
  });
});
