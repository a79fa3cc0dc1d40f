import { exports } from "cloudflare:workers";
import { describe, expect, expectTypeOf, it } from "vitest";
import { createClient, SvcClientError } from "../../../client/src/index.ts";
import type { Id } from "../../src/index.ts";
import { FILES_WORKER_HEADER } from "./files-app.ts";
import { bytesOf, filesValue, sha256, storageFetch } from "./storage-client.ts";

/** A client of the storage tests' worker as `user`, in shard `shardKey`. */
function clientAs(user: string, shardKey: string) {
  return createClient({
    url: "http://svc.test",
    shardKey,
    headers: { "x-test-user": user },
    fetch: (input, init) => {
      const headers = new Headers(init.headers);
      headers.set(FILES_WORKER_HEADER, "1");
      headers.set("x-test-user", user);
      return exports.default.fetch(input, { ...init, headers });
    },
  });
}

describe("@svc/client uploadFile", () => {
  it("uploads a Blob through a generated URL, reporting progress, and answers its typed id", async () => {
    const shard = "files-client";
    const client = clientAs("erin", shard);
    const bytes = bytesOf(50_000, 5);
    const url = await filesValue<string>("files:uploadUrl", {}, "erin", shard);
    const progress: { loaded: number; total: number }[] = [];
    const storageId = await client.uploadFile(url, new Blob([bytes], { type: "image/webp" }), {
      onProgress: (event) => progress.push(event),
    });
    expectTypeOf(storageId).toEqualTypeOf<Id<"_storage">>();
    expect(progress[0]).toEqual({ loaded: 0, total: 50_000 });
    expect(progress.at(-1)).toEqual({ loaded: 50_000, total: 50_000 });
    const download = await filesValue<string>("files:url", { file: storageId }, "erin", shard);
    const response = await storageFetch(download);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(await sha256(await response.arrayBuffer())).toBe(await sha256(bytes));
  });

  it("rejects a refused upload with the server's code and reason", async () => {
    const shard = "files-client-refused";
    const client = clientAs("erin", shard);
    const url = await filesValue<string>("files:uploadUrl", { maxBytes: 10 }, "erin", shard);
    const error = await client.uploadFile(url, new Blob([bytesOf(11)])).catch((thrown) => thrown);
    expect(error).toBeInstanceOf(SvcClientError);
    expect(error).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      status: 413,
      data: { reason: "too_large" },
    });
  });

  it("rejects with an AbortError when cancelled", async () => {
    const shard = "files-client-cancel";
    const client = clientAs("erin", shard);
    const url = await filesValue<string>("files:uploadUrl", {}, "erin", shard);
    const controller = new AbortController();
    controller.abort();
    const error = await client
      .uploadFile(url, new Blob([bytesOf(10)]), { signal: controller.signal })
      .catch((thrown) => thrown);
    expect(error).toMatchObject({ name: "AbortError" });
  });
});
