import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { appForThisFile, signUpForToken } from "./harness.ts";

const ADMIN_TOKEN = "files-cli-admin-token-0123456789abcdef";
const app = appForThisFile({
  vars: {
    SVC_ADMIN_TOKEN: ADMIN_TOKEN,
    SVC_STORAGE_SECRET: "files-cli-storage-secret-0123456789abcdef",
    REGISTRY_INTERVAL_MS: "200",
  },
});
const SVC_BIN = path.resolve(import.meta.dirname, "../../../../packages/cli/bin/svc.js");
const run = promisify(execFile);
const scratch = mkdtemp(path.join(tmpdir(), "svc-files-cli-"));

afterAll(async () => rm(await scratch, { recursive: true, force: true }));

/** Runs the real `svc` bin against the app; answers its exit code and output. */
async function svc(args: string[]) {
  const env = { ...process.env, SVC_URL: app.url, SVC_ADMIN_TOKEN: ADMIN_TOKEN };
  try {
    const { stdout, stderr } = await run(process.execPath, [SVC_BIN, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("svc files", () => {
  it("puts, lists, gets and removes a shard's files", async () => {
    const ann = await signUpForToken(app, "ann-files@example.com");
    const sent = await fetch(`${app.url}/_svc/rpc?shardKey=room-files`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ann}` },
      body: JSON.stringify({ path: "messages:send", args: { body: "hi", channel: "general" } }),
    });
    expect(sent.status).toBe(200);
    const dir = await scratch;
    const source = path.join(dir, "logo.png");
    const bytes = Buffer.from(Array.from({ length: 5_000 }, (_, i) => i % 256));
    await writeFile(source, bytes);

    // The shard reaches the registry an interval after its first write.
    let put = await svc(["files", "put", "room-files", source]);
    for (let tries = 0; put.code !== 0 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      put = await svc(["files", "put", "room-files", source]);
    }
    expect(put.code, put.stderr).toBe(0);
    const storageId = put.stdout.trim();
    expect(storageId).toMatch(/^_storage_[0-9a-z]{26}$/);

    const listed = await svc(["files", "list", "room-files"]);
    expect(listed.stdout).toMatch(/^STORAGE ID\s+STATE\s+SIZE\s+TYPE/);
    expect(listed.stdout).toContain(`${storageId}`);
    expect(listed.stdout).toMatch(/ready\s+5000\s+image\/png/);
    const json = await svc(["files", "list", "room-files", "--json"]);
    expect(JSON.parse(json.stdout.trim())).toMatchObject({
      storageId,
      size: 5_000,
      contentType: "image/png",
      uploader: null,
      references: [],
    });

    const copy = path.join(dir, "copy.png");
    const got = await svc(["files", "get", "room-files", storageId, "-o", copy]);
    expect(got.code, got.stderr).toBe(0);
    expect(Buffer.compare(await readFile(copy), bytes)).toBe(0);

    const removed = await svc(["files", "rm", "room-files", storageId]);
    expect(removed.stdout.trim()).toBe(`deleted ${storageId}`);
    const gone = await svc(["files", "get", "room-files", storageId, "-o", copy]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("404 NOT_FOUND");
    expect((await svc(["files", "list", "room-files"])).stdout).toContain("0 files");
  });
});
