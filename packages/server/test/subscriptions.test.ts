import { createExecutionContext, evictDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createWorker, SCHEDULED_JOB_QUERY } from "../src/index.ts";
import { functions } from "./fixture/functions.ts";
import { rpcValue } from "./rpc.ts";

type Frame = { type: string; id?: string; value?: unknown; error?: { code: string } };

/** A subscription socket with its frames, as a test sees it. */
interface Socket {
  ws: WebSocket;
  frames: Frame[];
  closed: Promise<CloseEvent>;
  subscribe(id: string, path: string, args?: unknown): void;
  /** The next frame matching `match` (already received or arriving within `timeoutMs`). */
  next(match: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  /** Waits `ms` and answers the frames that arrived meanwhile. */
  quietFor(ms: number): Promise<Frame[]>;
}

const faster = createWorker({
  shardDO: "SHARD",
  functions,
  subscriptionReauthSeconds: 1,
  resolveIdentity: (request) => {
    const user = request.headers.get("x-test-user");
    return user ? { userId: user } : null;
  },
});

async function open(
  options: { user?: string; shardKey: string; headers?: Record<string, string> },
  worker: { fetch: (request: Request) => Promise<Response> } = {
    fetch: (request) => exports.default.fetch(request),
  },
): Promise<Socket> {
  const headers = new Headers({
    upgrade: "websocket",
    "sec-websocket-protocol": "svc.v1",
    ...options.headers,
  });
  if (options.user) headers.set("x-test-user", options.user);
  const url = `http://svc.test/_svc/ws?shardKey=${encodeURIComponent(options.shardKey)}`;
  const response = await worker.fetch(new Request(url, { headers }));
  expect(response.status).toBe(101);
  const ws = response.webSocket!;
  ws.accept();
  const frames: Frame[] = [];
  const listeners = new Set<() => void>();
  ws.addEventListener("message", (event) => {
    frames.push(JSON.parse(event.data as string) as Frame);
    for (const listener of listeners) listener();
  });
  const closed = new Promise<CloseEvent>((resolve) => ws.addEventListener("close", resolve));
  let seen = 0;
  return {
    ws,
    frames,
    closed,
    subscribe: (id, path, args) => ws.send(JSON.stringify({ type: "subscribe", id, path, args })),
    next(match, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          for (let index = seen; index < frames.length; index++) {
            if (match(frames[index]!)) {
              seen = index + 1;
              listeners.delete(check);
              clearTimeout(timer);
              resolve(frames[index]!);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`),
          );
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    async quietFor(ms) {
      const before = frames.length;
      await new Promise((resolve) => setTimeout(resolve, ms));
      return frames.slice(before);
    },
  };
}

const valueFor = (id: string) => (frame: Frame) => frame.type === "value" && frame.id === id;
const bodies = (frame: Frame) => (frame.value as { body: string }[]).map((row) => row.body);

describe("watching a scheduled job (`_svc/scheduler:job`)", () => {
  const job = (frame: Frame) => frame.value as { state: string; attempts: number } | null;

  it("shows its scheduler the job's state live, and nobody else anything", async () => {
    const shardKey = "live-job";
    const id = await rpcValue<string>(
      "scheduled:later",
      { delayMs: 600, text: "watched" },
      { user: "ann", shardKey },
    );
    const ann = await open({ user: "ann", shardKey });
    const bob = await open({ user: "bob", shardKey });
    const nobody = await open({ shardKey });
    ann.subscribe("j", SCHEDULED_JOB_QUERY, { id });
    bob.subscribe("j", SCHEDULED_JOB_QUERY, { id });
    nobody.subscribe("j", SCHEDULED_JOB_QUERY, { id });
    expect((await ann.next(valueFor("j"))).value).toMatchObject({
      id,
      function: "scheduled:note",
      state: "pending",
      attempts: 0,
      finishedAt: null,
      error: null,
    });
    // Another user and an anonymous caller see what an unknown id shows: nothing.
    expect(job(await bob.next(valueFor("j")))).toBeNull();
    expect(job(await nobody.next(valueFor("j")))).toBeNull();
    // The alarm runs it: the watcher hears `succeeded` without asking again.
    expect(job(await ann.next(valueFor("j"), 15_000))).toMatchObject({
      state: "succeeded",
      attempts: 1,
    });
    expect(await bob.quietFor(200)).toEqual([]);
    expect(JSON.stringify([...bob.frames, ...nobody.frames])).not.toContain("scheduled:note");
    for (const socket of [ann, bob, nobody]) socket.ws.close();
  });

  it("pushes `canceled` when the job is canceled, and `null` for an id the shard never made", async () => {
    const shardKey = "live-job-cancel";
    const id = await rpcValue<string>(
      "scheduled:later",
      { delayMs: 60_000, text: "never" },
      { user: "ann", shardKey },
    );
    const ann = await open({ user: "ann", shardKey });
    ann.subscribe("j", SCHEDULED_JOB_QUERY, { id });
    ann.subscribe("unknown", SCHEDULED_JOB_QUERY, { id: "_svc_scheduled_nope" });
    expect(job(await ann.next(valueFor("j")))).toMatchObject({ state: "pending" });
    expect(job(await ann.next(valueFor("unknown")))).toBeNull();
    expect(await rpcValue("scheduled:cancel", { id }, { user: "ann", shardKey })).toBe(true);
    expect(job(await ann.next(valueFor("j")))).toMatchObject({ state: "canceled" });
    ann.ws.close();
  });

  it("refuses arguments that are not `{ id: string }`", async () => {
    const ann = await open({ user: "ann", shardKey: "live-job-bad" });
    ann.subscribe("j", SCHEDULED_JOB_QUERY, { id: 42 });
    const frame = await ann.next((f) => f.id === "j");
    expect(frame).toMatchObject({ type: "error", error: { code: "VALIDATION_FAILED" } });
    ann.ws.close();
  });
});

describe("subscriptions over WebSockets", () => {
  it("send the first value, then a new one after each commit that changes it", async () => {
    const alice = await open({ user: "alice", shardKey: "live-1" });
    alice.subscribe("a", "messages:list");
    expect(bodies(await alice.next(valueFor("a")))).toEqual([]);
    await rpcValue("messages:send", { body: "first" }, { user: "alice", shardKey: "live-1" });
    expect(bodies(await alice.next(valueFor("a")))).toEqual(["first"]);
    await rpcValue("messages:send", { body: "second" }, { user: "alice", shardKey: "live-1" });
    expect(bodies(await alice.next(valueFor("a")))).toEqual(["first", "second"]);
    alice.ws.close();
  });

  it("do not re-run for a commit to a table the query did not read", async () => {
    const alice = await open({ user: "alice", shardKey: "live-2" });
    alice.subscribe("a", "messages:list");
    await alice.next(valueFor("a"));
    await rpcValue("notes:add", { text: "unrelated" }, { shardKey: "live-2" });
    expect(await alice.quietFor(300)).toEqual([]);
    alice.ws.close();
  });

  it("apply each subscriber's RLS: bob never receives alice's rows", async () => {
    const bob = await open({ user: "bob", shardKey: "live-3" });
    bob.subscribe("b", "messages:list");
    expect(bodies(await bob.next(valueFor("b")))).toEqual([]);
    await rpcValue("messages:send", { body: "alice only" }, { user: "alice", shardKey: "live-3" });
    // Bob's result did not change, so nothing is pushed to him.
    expect(await bob.quietFor(300)).toEqual([]);
    await rpcValue("messages:send", { body: "bob's" }, { user: "bob", shardKey: "live-3" });
    expect(bodies(await bob.next(valueFor("b")))).toEqual(["bob's"]);
    expect(JSON.stringify(bob.frames)).not.toContain("alice only");
    bob.ws.close();
  });

  it("ignore a forged identity header", async () => {
    await rpcValue("messages:send", { body: "secret" }, { user: "alice", shardKey: "live-4" });
    const forged = JSON.stringify({
      identity: { userId: "alice" },
      authorizedUntil: 9e15,
      headers: {},
    });
    const mallory = await open({
      shardKey: "live-4",
      headers: { "x-svc-internal-socket-grant": forged },
    });
    mallory.subscribe("m", "messages:list");
    expect(bodies(await mallory.next(valueFor("m")))).toEqual([]);
    mallory.ws.close();
  });

  it("answer internal queries, mutations and unknown paths alike, and keep the socket", async () => {
    const socket = await open({ shardKey: "live-5" });
    const codes: string[] = [];
    for (const path of ["jobs:countRuns", "messages:send", "nope:nothing", "messages:ticks"]) {
      socket.subscribe(path, path);
      const frame = await socket.next((f) => f.type === "error" && f.id === path);
      codes.push(`${frame.error?.code}`);
    }
    expect(codes).toEqual(["NOT_FOUND", "NOT_FOUND", "NOT_FOUND", "NOT_FOUND"]);
    socket.ws.send("not json");
    expect(await socket.next((f) => f.type === "error" && f.id === undefined)).toMatchObject({
      error: { code: "BAD_REQUEST" },
    });
    socket.subscribe("ok", "messages:list");
    await socket.next(valueFor("ok"));
    socket.ws.close();
  });

  it("limit subscriptions per socket and frame size", async () => {
    const socket = await open({ shardKey: "live-6" });
    for (let index = 0; index < 100; index++) socket.subscribe(`s${index}`, "messages:list");
    socket.subscribe("one-too-many", "messages:list");
    expect(await socket.next((f) => f.id === "one-too-many")).toMatchObject({
      type: "error",
      error: { code: "BAD_REQUEST" },
    });
    socket.ws.send(JSON.stringify({ type: "subscribe", id: "big", path: "x".repeat(70_000) }));
    expect((await socket.closed).code).toBe(1009);
  });

  it("end a socket's authority after subscriptionReauthSeconds (close 4001)", async () => {
    const socket = await open(
      { user: "alice", shardKey: "live-7" },
      { fetch: (request) => faster.fetch(request, env, createExecutionContext()) },
    );
    socket.subscribe("a", "messages:list");
    await socket.next(valueFor("a"));
    const started = Date.now();
    const closed = await socket.closed;
    expect(closed.code).toBe(4001);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("survive eviction of the object (hibernation), and a new socket resumes with the current value", async () => {
    const alice = await open({ user: "alice", shardKey: "live-8" });
    alice.subscribe("a", "messages:list");
    await alice.next(valueFor("a"));
    await evictDurableObject(env.SHARD.getByName("live-8") as unknown as DurableObjectStub);
    await rpcValue(
      "messages:send",
      { body: "after eviction" },
      { user: "alice", shardKey: "live-8" },
    );
    expect(bodies(await alice.next(valueFor("a")))).toEqual(["after eviction"]);
    const again = await open({ user: "alice", shardKey: "live-8" });
    again.subscribe("b", "messages:list");
    expect(bodies(await again.next(valueFor("b")))).toEqual(["after eviction"]);
    alice.ws.close();
    again.ws.close();
  });

  it("refuse a plain GET, a missing subprotocol and cross-site cookies", async () => {
    const plain = await exports.default.fetch("http://svc.test/_svc/ws");
    expect(plain.status).toBe(400);
    const noProtocol = await exports.default.fetch("http://svc.test/_svc/ws", {
      headers: { upgrade: "websocket" },
    });
    expect(await noProtocol.json()).toMatchObject({ code: "BAD_REQUEST" });
    const crossSite = await exports.default.fetch("http://svc.test/_svc/ws", {
      headers: {
        upgrade: "websocket",
        "sec-websocket-protocol": "svc.v1",
        cookie: "session=x",
        origin: "https://evil.example",
      },
    });
    expect(crossSite.status).toBe(403);
  });
});

describe("the svc.bearer subprotocol (issue 53, point 6)", () => {
  const byBearer = createWorker({
    shardDO: "SHARD",
    functions,
    resolveIdentity: (request) =>
      request.headers.get("authorization") === "Bearer good-token" ? { userId: "bearer" } : null,
  });
  const upgrade = (protocol: string) =>
    byBearer.fetch(
      new Request("http://svc.test/_svc/ws?shardKey=bearer-protocol", {
        headers: { upgrade: "websocket", "sec-websocket-protocol": `svc.v1, ${protocol}` },
      }),
      env,
      createExecutionContext(),
    );
  const base64url = (text: string) =>
    btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

  it("opens as the token's caller when it decodes to a token", async () => {
    const response = await upgrade(`svc.bearer.${base64url("good-token")}`);
    expect(response.status).toBe(101);
    response.webSocket?.accept();
    response.webSocket?.close();
  });

  it("answers 401, never 500 and never an anonymous socket, for what is no token", async () => {
    const garbage = {
      "NUL byte": base64url("\u0000"),
      "line break": base64url("good\r\ntoken"),
      "non-ASCII byte": base64url("caf\u00e9"),
      "raw svc_ key": `svc_${"A1b2".repeat(12)}`,
      "not base64url": "%%%",
    };
    for (const [name, encoded] of Object.entries(garbage)) {
      const response = await upgrade(`svc.bearer.${encoded}`);
      expect(response.status, name).toBe(401);
      expect(response.headers.get("www-authenticate"), name).toBe("Bearer");
      expect(await response.json(), name).toMatchObject({ code: "UNAUTHENTICATED" });
    }
  });
});
