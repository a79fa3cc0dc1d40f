import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { objectKey } from "../../src/storage/paths.ts";
import { BARE_FILES, FILES_ADMIN_TOKEN, FILES_WORKER_HEADER } from "./files-app.ts";
import { operatorPut, sha256 } from "./storage-client.ts";

/** Fetches a path of the app whose storage has no signing secret. */
function bare(path: string, init: RequestInit = {}, user?: string): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set(FILES_WORKER_HEADER, BARE_FILES);
  if (user !== undefined) headers.set("x-test-user", user);
  return exports.default.fetch(`http://svc.test${path}`, { ...init, headers });
}

function admin(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${FILES_ADMIN_TOKEN}`);
  return bare(`/_svc/admin/files/${path}`, { ...init, headers });
}

async function call(path: string, args: unknown, shard: string): Promise<Response> {
  return bare(
    `/_svc/rpc?shardKey=${shard}`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path, args }),
    },
    "alice",
  );
}

/** The problem answer every URL-signing path gives without the secret. */
const NO_SECRET = {
  code: "UNAVAILABLE",
  data: { reason: "no_secret" },
  detail: expect.stringContaining("env.FILES_UNSET_SECRET"),
};

describe("file storage without a signing secret", () => {
  it("serves the files admin routes: list, download, upload and delete", async () => {
    const shard = "files-no-secret";
    // An action stores bytes with the bucket alone; the shard then exists for the registry.
    const stored = await call("files:storeText", { text: "stored by an action" }, shard);
    expect(stored.status).toBe(200);
    const first = ((await stored.json()) as { value: string }).value;
    const until = Date.now() + 5_000;
    while ((await admin(`shards/${shard}`)).status === 404) {
      if (Date.now() > until) throw new Error("the registry never listed the shard");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const storageId = await operatorPut(admin, shard, "from the operator");

    const listed = await admin(`shards/${shard}`);
    expect(listed.status).toBe(200);
    const page = (await listed.json()) as { files: { storageId: string; sha256: string }[] };
    expect(page.files.map((file) => file.storageId).sort()).toEqual([first, storageId].sort());
    const operators = page.files.find((file) => file.storageId === storageId);
    expect(operators?.sha256).toBe(await sha256(new TextEncoder().encode("from the operator")));

    const download = await admin(`shards/${shard}/${storageId}`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe("from the operator");

    const deleted = await admin(`shards/${shard}/${storageId}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: true });
    expect(await env.FILES.head(objectKey(shard, storageId))).toBeNull();
    const after = (await (await admin(`shards/${shard}`)).json()) as {
      files: { storageId: string }[];
    };
    expect(after.files.map((file) => file.storageId)).toEqual([first]);
  });

  it("refuses upload and download URLs with a problem naming the missing secret", async () => {
    const shard = "files-no-secret-urls";
    const uploadUrl = await call("files:uploadUrl", {}, shard);
    expect(uploadUrl.status).toBe(503);
    expect(await uploadUrl.json()).toMatchObject(NO_SECRET);

    const stored = await call("files:storeText", { text: "kept" }, shard);
    const file = ((await stored.json()) as { value: string }).value;
    expect((await call("files:attach", { file, name: "a" }, shard)).status).toBe(200);
    const getUrl = await call("files:url", { file }, shard);
    expect(getUrl.status).toBe(503);
    expect(await getUrl.json()).toMatchObject(NO_SECRET);

    const posted = await bare("/_svc/storage/upload?token=forged", { method: "POST", body: "x" });
    expect(posted.status).toBe(503);
    expect(await posted.json()).toMatchObject(NO_SECRET);
    const fetched = await bare(`/_svc/storage/files/${file}?token=forged`);
    expect(fetched.status).toBe(503);
    expect(await fetched.json()).toMatchObject(NO_SECRET);
  });
});
