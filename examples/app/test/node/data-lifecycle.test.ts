import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { appForThisFile, signUpForToken } from "./harness.ts";

const ADMIN_TOKEN = "data-lifecycle-admin-token-0123456789abcdef";
const app = appForThisFile({ vars: { SVC_ADMIN_TOKEN: ADMIN_TOKEN, REGISTRY_INTERVAL_MS: "200" } });
const SVC_BIN = path.resolve(import.meta.dirname, "../../../../packages/cli/bin/svc.js");
const run = promisify(execFile);
const scratch = mkdtemp(path.join(tmpdir(), "svc-data-lifecycle-"));

afterAll(async () => rm(await scratch, { recursive: true, force: true }));

/** Runs the real `svc` bin against the app; answers its exit code and output. */
async function svc(args: string[], token: string | null = ADMIN_TOKEN) {
  const env = { ...process.env, SVC_URL: app.url, SVC_ADMIN_TOKEN: token ?? "" };
  try {
    const { stdout, stderr } = await run(process.execPath, [SVC_BIN, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function rpc(bearer: string, shardKey: string, path: string, args: unknown) {
  const response = await fetch(`${app.url}/_svc/rpc?shardKey=${shardKey}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ path, args }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { value: unknown }).value;
}

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Row = { key: string; documents: number; tables: { name: string; documents: number }[] };

describe("the data lifecycle from the svc command line", () => {
  it("lists shards, backs one up to a file, restores it under a new key and refuses bad files", async () => {
    const ann = await signUpForToken(app, "ann-data@example.com");
    for (const body of ["one", "two", "three"]) {
      await rpc(ann, "room-a", "messages:send", { body, channel: "general" });
    }
    const listed = await until(async () => {
      const { code, stdout } = await svc(["shards", "list", "--json", "--search", "room-"]);
      expect(code).toBe(0);
      const rows = stdout
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Row);
      const row = rows.find((candidate) => candidate.key === "room-a");
      const count = (name: string) => row?.tables.find((t) => t.name === name)?.documents;
      // The queue consumer writes each message's notification later: wait until the shard is quiet.
      return count("messages") === 3 && count("notifications") === 3 ? row : undefined;
    });
    const table = await svc(["shards", "list"]);
    expect(table.stdout).toMatch(/^KEY\s+DOCUMENTS\s+SIZE/);
    expect(table.stdout).toMatch(/room-a\s+\d+/);
    expect((await svc(["shards", "show", "room-a"])).stdout).toContain(
      `documents      ${listed.documents}`,
    );

    const dir = await scratch;
    const file = path.join(dir, "room-a.ndjson");
    const backup = await svc(["backup", "room-a", "-o", file]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stderr).toContain(
      `backup room-a: ${listed.documents} documents written to ${file}`,
    );
    const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(1 + listed.documents);
    const header = JSON.parse(lines[0]!) as { shardKey: string; tables: Record<string, number> };
    expect(header.shardKey).toBe("room-a");
    expect(header.tables).toEqual(
      Object.fromEntries(listed.tables.map((table) => [table.name, table.documents])),
    );

    const restored = await svc(["restore", "room-b", file]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stderr).toContain(`restore room-b: ${listed.documents} documents restored`);
    const inB = (await rpc(ann, "room-b", "messages:list", {})) as { _id: string; body: string }[];
    const inA = (await rpc(ann, "room-a", "messages:list", {})) as { _id: string; body: string }[];
    expect(inB).toEqual(inA);
    expect(inB.map((m) => m.body)).toEqual(["three", "two", "one"]);

    const bad = path.join(dir, "bad.ndjson");
    await writeFile(bad, lines.map((line, i) => (i === 2 ? "{not json" : line)).join("\n"));
    const refused = await svc(["restore", "room-c", bad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("failed: 400 BAD_REQUEST");
    expect(refused.stderr).toContain("line 3: not valid JSON");
    expect(await rpc(ann, "room-c", "messages:list", {})).toEqual([]);
    const busy = await svc(["restore", "room-a", file]);
    expect(busy.stderr).toContain("409 CONFLICT");
  });

  it("backs up to the R2 bucket, restores by backup id and by date, and deletes with the key typed again", async () => {
    const bob = await signUpForToken(app, "bob-data@example.com");
    await rpc(bob, "room-r2", "messages:send", { body: "kept", channel: "general" });
    await until(async () => {
      const { stdout } = await svc(["shards", "show", "room-r2", "--json"]);
      return stdout.includes('"name": "messages",\n      "documents": 1') ? true : undefined;
    });
    const taken = await svc(["backup", "room-r2", "--bucket"]);
    expect(taken.code, taken.stderr).toBe(0);
    const id = taken.stdout.trim();
    expect(id).toMatch(/^svc-backups\/room-r2\/.*\.ndjson$/);
    const backups = await svc(["backups", "--shard", "room-r2", "--json"]);
    expect(
      backups.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).id),
    ).toEqual([id]);
    const restored = await svc(["restore", "room-r2-copy", "--backup", id]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(await rpc(bob, "room-r2-copy", "messages:list", {})).toEqual(
      await rpc(bob, "room-r2", "messages:list", {}),
    );
    // By date: the newest backup taken at or before the time (a bare date: the end of that day).
    const today = new Date().toISOString().slice(0, 10);
    const dated = await svc(["restore", "room-r2-dated", "--from", "room-r2", "--at", today]);
    expect(dated.code, dated.stderr).toBe(0);
    expect(dated.stderr).toContain("restoring room-r2's backup of");
    expect(await rpc(bob, "room-r2-dated", "messages:list", {})).toEqual(
      await rpc(bob, "room-r2", "messages:list", {}),
    );
    const tooEarly = await svc([
      "restore",
      "room-r2-old",
      "--from",
      "room-r2",
      "--at",
      "2000-01-01",
    ]);
    expect(tooEarly.code).toBe(1);
    expect(tooEarly.stderr).toContain(
      'no backup of "room-r2" was taken at or before 2000-01-01T23:59:59.999Z; the oldest is of',
    );
    const badDate = await svc(["restore", "room-r2-old", "--from", "room-r2", "--at", "soon"]);
    expect(badDate.stderr).toContain('--at "soon" is not a date or time');

    const unconfirmed = await svc(["shards", "delete", "room-r2"]);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toContain('--confirm "room-r2"');
    const mistyped = await svc(["shards", "delete", "room-r2", "--confirm", "room-r3"]);
    expect(mistyped.stderr).toContain("400 VALIDATION_FAILED");
    expect(mistyped.stderr).toContain("- query.confirm: must repeat the shard key");
    const deleted = await svc(["shards", "delete", "room-r2", "--confirm", "room-r2"]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toMatch(/^deleted shard room-r2: \d+ documents/);
    expect(await rpc(bob, "room-r2", "messages:list", {})).toEqual([]);

    const audit = await fetch(`${app.url}/_svc/admin/auth/audit?target=room-r2`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const { entries } = (await audit.json()) as {
      entries: { action: string; outcome: string; operator: string }[];
    };
    expect(entries.map((e) => [e.action, e.outcome, e.operator])).toEqual([
      ["shard.delete", "ok", "admin"],
      ["shard.delete", "error", "admin"],
      ["shard.backup", "ok", "admin"],
    ]);
  });

  it("shows, dry-runs and runs the app's migration in every shard, and names an unknown one", async () => {
    const cy = await signUpForToken(app, "cy-data@example.com");
    for (const key of ["room-mig-1", "room-mig-2"]) {
      await rpc(cy, key, "messages:send", { body: "hello", channel: "general" });
    }
    await until(async () => {
      const { stdout } = await svc(["shards", "list", "--json", "--search", "room-mig-"]);
      return stdout.trim().split("\n").filter(Boolean).length === 2 ? true : undefined;
    });
    const NAME = "2026-11-28-notice-event";
    // Both shards started with the migration's code: nothing was stored before it, so it is done.
    const status = await svc(["migrations", "status", "--search", "room-mig-"]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^MIGRATION\s+TABLE\s+DONE\s+RUNNING\s+STOPPED\s+WAITING/);
    expect(status.stdout).toMatch(new RegExp(`${NAME}\\s+notices\\s+2\\s+0\\s+0\\s+0\\s+0\\s+0`));
    expect(status.stdout).toContain("2 shards");
    const json = await svc(["migrations", "status", "--search", "room-mig-", "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      shards: 2,
      unreachable: [],
      migrations: [{ name: NAME, table: "notices", shards: { done: 2, running: 0 } }],
    });

    const dry = await svc(["migrations", "run", NAME, "--dry-run", "--search", "room-mig-"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("room-mig-1: 0 to migrate: 0 would change, 0 deleted");
    expect(dry.stdout).toContain(
      `dry run of ${NAME} over 2 shards: 0 would change, 0 would be deleted, 0 would fail; nothing was written`,
    );
    const run = await svc(["migrations", "run", NAME, "--search", "room-mig-"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${NAME}: started in 2 shards`);
    expect(run.stderr).toMatch(
      new RegExp(`migration ${NAME}: 2 shards done, 0 stopped: 0 changed`),
    );

    const unknown = await svc(["migrations", "run", "2099-none", "--search", "room-mig-"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("404 NOT_FOUND");
    expect(unknown.stderr).toContain('No migration named "2099-none".');
    const usage = await svc(["migrations", "run"]);
    expect(usage.stderr).toContain("svc migrations run needs a migration name");

    const audit = await fetch(`${app.url}/_svc/admin/auth/audit?action=migration.run`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const { entries } = (await audit.json()) as {
      entries: { targetType: string; targetId: string; outcome: string; detail: string }[];
    };
    expect(entries.map((e) => [e.targetType, e.targetId, e.outcome, e.detail])).toEqual([
      ["migration", "2099-none", "error", 'No migration named "2099-none".'],
      ["migration", NAME, "ok", "started in 2 of 2 shards"],
      [
        "migration",
        NAME,
        "ok",
        "dry run over 2 shards: 0 would change, 0 would be deleted, 0 would fail",
      ],
    ]);
  });

  it("says what is wrong without a token or a server", async () => {
    const noToken = await svc(["shards", "list"], null);
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain("set SVC_ADMIN_TOKEN");
    const wrongToken = await svc(["shards", "list"], "wrong-token-0123456789abcdef0123456789");
    expect(wrongToken.stderr).toContain("401 UNAUTHENTICATED");
    const down = await svc(["shards", "list", "--url", "http://127.0.0.1:1"]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain("svc: could not reach http://127.0.0.1:1");
    const unknown = await svc(["shards", "show", "room-never"]);
    expect(unknown.stderr).toContain("404 NOT_FOUND");
  });
});
