import { env } from "cloudflare:workers";
import type { ShardEndpoint } from "@svc/server/internal";
import { beforeAll, describe, expect, it } from "vitest";
import { call, rpc } from "./http.ts";

/**
 * Calls a procedure exactly as a cron job does: the worker's call into the
 * shard Durable Object with the service identity.
 */
async function runAsCron(path: string) {
  const shard = env.SHARD.getByName("default") as unknown as ShardEndpoint;
  return shard.call({
    fromServer: true,
    path,
    args: {},
    identity: null,
    service: "cron:test",
    transport: "cron",
    requestId: crypto.randomUUID(),
    shardKey: "default",
  });
}

describe("server-to-server ctx.authApi (service account)", () => {
  // Any request through the worker migrates both auth databases first: ~13 s on a
  // busy 2-core machine, more than vitest's 10 s default for a hook.
  beforeAll(async () => expect((await call("/api/auth/ok")).status).toBe(200), 60_000);

  it("calls better-auth with empty Headers as the service account, with its role", async () => {
    const first = await runAsCron("service:whoAmIAsService");
    expect(first).toMatchObject({
      ok: true,
      value: { kind: "service", email: "service@svc.invalid", role: "admin" },
    });
    const value = (first as { value: { listedTotal: number; sessionId: string } }).value;
    // listUsers needs an admin session: it answered, and the service account is one of the users.
    expect(value.listedTotal).toBeGreaterThanOrEqual(1);
    const second = await runAsCron("service:whoAmIAsService");
    // One short session is reused while it is fresh.
    expect((second as { value: { sessionId: string } }).value.sessionId).toBe(value.sessionId);
  });

  it("says what to configure when no service account is set up", async () => {
    const result = await runAsCron("service:withoutServiceAccount");
    expect(result).toMatchObject({ ok: false, error: { code: "INTERNAL" } });
  });

  it("never lends the service account to a client's call", async () => {
    const { status, body } = await rpc("service:asClient", {});
    expect(status).toBe(200);
    expect(body).toEqual({ value: null });
  });
});
