/**
 * The schedules admin API over the registry, through real HTTP into real
 * shards of the data worker (its shards report to the registry every
 * 200 ms): operator cancels are audited, one shard's or a filtered set's;
 * jobs are listed and canceled across shards, a page of shards at a time,
 * and a shard that fails is reported beside the others' jobs.
 */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AcrossShardsCancel, AcrossShardsJobPage, DataAuditEntry } from "../../src/index.ts";
import { rpcValue } from "../rpc.ts";
import { ADMIN, DATA, eventually } from "./admin.ts";

/** Calls `/_svc/admin/schedules/<path>` of the data worker as alice. */
function schedules(path: string, body?: unknown): Promise<Response> {
  return exports.default.fetch(`http://svc.test/_svc/admin/schedules/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...DATA, ...ADMIN, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`expected ${status}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Every `schedule.cancel` line the data worker's audit trail holds. */
async function cancelAudit(): Promise<DataAuditEntry[]> {
  const response = await exports.default.fetch("http://svc.test/__test/audit", { headers: DATA });
  const entries = (await response.json()) as DataAuditEntry[];
  return entries.filter((entry) => entry.action === "schedule.cancel");
}

/** Schedules a note in `shardKey`, due in `delayMs`, as `user`; answers the job's id. */
function later(shardKey: string, user: string, delayMs: number, text: string): Promise<string> {
  return rpcValue<string>("scheduled:later", { delayMs, text }, { shardKey, user, headers: DATA });
}

describe("operator cancels of scheduled jobs", () => {
  it("are audited with the operator, the shard, the selection and the count, refusals too", async () => {
    const shardKey = "sched-audit";
    const first = await later(shardKey, "ann", 60_000, "a1");
    await later(shardKey, "bo", 61_000, "b1");

    expect(await json(await schedules(`shards/${shardKey}/cancel`, { ids: [first] }))).toEqual({
      canceled: 1,
    });
    expect(await json(await schedules(`shards/${shardKey}/cancel`, { user: "bo" }))).toEqual({
      canceled: 1,
    });
    const refused = await schedules(`shards/${shardKey}/cancel`, {});
    expect(refused.status).toBe(400);

    const lines = (await cancelAudit()).filter((entry) => entry.targetId === shardKey);
    expect(lines).toEqual([
      {
        operator: "alice",
        action: "schedule.cancel",
        targetType: "shard",
        targetId: shardKey,
        outcome: "ok",
        detail: `canceled 1 pending jobs: ids=[${first}]`,
      },
      {
        operator: "alice",
        action: "schedule.cancel",
        targetType: "shard",
        targetId: shardKey,
        outcome: "ok",
        detail: "canceled 1 pending jobs: user=bo",
      },
      {
        operator: "alice",
        action: "schedule.cancel",
        targetType: "shard",
        targetId: shardKey,
        outcome: "error",
        detail: "Name the jobs to cancel: ids, function, userId or all.",
      },
    ]);
  });
});

describe("scheduled jobs across the registry's shards", () => {
  const KEYS = ["sched-x-a", "sched-x-b", "sched-x-c"];
  const search = "sched-x-";

  /** Renames shard c's job table away (its lists then fail) while `run` runs, then puts it back. */
  async function withBrokenShard<T>(key: string, run: () => Promise<T>): Promise<T> {
    const stub = env.DATA_SHARD.getByName(key);
    await runInDurableObject(stub, (_instance, state) => {
      state.storage.sql.exec("ALTER TABLE _svc_scheduled RENAME TO _svc_scheduled_kept");
      state.storage.sql.exec("CREATE TABLE _svc_scheduled (id TEXT PRIMARY KEY)");
    });
    try {
      return await run();
    } finally {
      await runInDurableObject(stub, (_instance, state) => {
        state.storage.sql.exec("DROP TABLE _svc_scheduled");
        state.storage.sql.exec("ALTER TABLE _svc_scheduled_kept RENAME TO _svc_scheduled");
      });
    }
  }

  it("lists jobs of every shard by due time, pages shards, reports a failing shard, cancels a filtered set", async () => {
    const [a, b, c] = KEYS as [string, string, string];
    const a1 = await later(a, "ann", 60_000, "a1");
    const a2 = await later(a, "ann", 63_000, "a2");
    const b1 = await later(b, "bo", 61_000, "b1");
    const c1 = await later(c, "ann", 62_000, "c1");

    // The registry learns of shards from their reports: wait until it names all three.
    const page = await eventually(async () => {
      const answer = await json<AcrossShardsJobPage>(
        await schedules(`jobs?search=${search}&state=pending`),
      );
      return answer.jobs.length === 4 ? answer : undefined;
    }, "three shards' jobs across the registry");
    expect(page.jobs.map((job) => [job.shard, job.id, job.runsAs])).toEqual([
      [a, a1, "user:ann"],
      [b, b1, "user:bo"],
      [c, c1, "user:ann"],
      [a, a2, "user:ann"],
    ]);
    expect(page.jobs[0]).toMatchObject({ function: "scheduled:note", state: "pending" });
    expect(page).toMatchObject({ more: [], errors: [], nextCursor: null });

    // A page of one shard at a time, each shard's first job: shard a has more than shown.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ search, shards: "1", limit: "1" });
      if (cursor !== null) query.set("cursor", cursor);
      const one: AcrossShardsJobPage = await json(await schedules(`jobs?${query}`));
      expect(one.jobs.length).toBe(1);
      seen.push(`${one.jobs[0]!.shard} ${one.more.join(",")}`);
      cursor = one.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual([`${a} ${a}`, `${b} `, `${c} `]);

    // A shard whose table cannot be read is named with its error; the others still answer.
    const broken = await withBrokenShard(c, async () =>
      json<AcrossShardsJobPage>(await schedules(`jobs?search=${search}`)),
    );
    expect(broken.jobs.map((job) => job.id)).toEqual([a1, b1, a2]);
    expect(broken.errors).toEqual([{ shard: c, code: "INTERNAL", message: expect.any(String) }]);

    // Cancel ann's jobs in every shard; a body naming nothing is refused before any shard is asked.
    const refused = await schedules("jobs/cancel", { search });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "BAD_REQUEST" });
    const done = await json<AcrossShardsCancel>(
      await schedules("jobs/cancel", { search, user: "ann" }),
    );
    expect(done).toEqual({
      canceled: 3,
      shards: [
        { shard: a, canceled: 2 },
        { shard: c, canceled: 1 },
      ],
      errors: [],
      nextCursor: null,
    });
    const left = await json<AcrossShardsJobPage>(
      await schedules(`jobs?search=${search}&state=pending`),
    );
    expect(left.jobs.map((job) => job.id)).toEqual([b1]);

    const across = (await cancelAudit()).filter((entry) => entry.targetId === "*");
    expect(across).toEqual([
      expect.objectContaining({ outcome: "error", targetType: "shard" }),
      {
        operator: "alice",
        action: "schedule.cancel",
        targetType: "shard",
        targetId: "*",
        outcome: "ok",
        detail: `canceled 3 pending jobs across shards: user=ann; shards matching ${search} from the start; per shard ${a}: 2, ${c}: 1`,
      },
    ]);
  }, 60_000);

  it("declares the routes in the admin API's OpenAPI document", async () => {
    const response = await exports.default.fetch("http://svc.test/_svc/admin/admin-openapi.json", {
      headers: { ...DATA, ...ADMIN },
    });
    const document = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths["/_svc/admin/schedules/jobs"] ?? {})).toEqual(["get"]);
    expect(Object.keys(document.paths["/_svc/admin/schedules/jobs/cancel"] ?? {})).toEqual([
      "post",
    ]);
  });
});
