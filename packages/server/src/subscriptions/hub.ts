import type { Dispatcher } from "../dispatch/dispatch.ts";
import { normalizeError } from "../errors/normalize.ts";
import { type ProblemDetails, toProblem } from "../errors/problem.ts";
import { SvcError } from "../errors/svc-error.ts";
import { FrameBudget } from "../limits/socket-limits.ts";
import { refuseOutOfScope } from "../model/api-key.ts";
import type { Identity } from "../model/identity.ts";
import { callerOf } from "../observability/caller.ts";
import type { ShardRunRecorder } from "../observability/shard-recorder.ts";
import { parseJson, stringifyJson } from "../values/json-codec.ts";
import { decodeOpaqueJson } from "../values/opaque-json.ts";
import { MutationAcknowledgements } from "./acknowledgements.ts";
import {
  CLIENT_ID_PARAM,
  CLOSE,
  type ClientFrame,
  clientOfMutation,
  GRANT_HEADER,
  isClientId,
  type ServerFrame,
  type SocketGrant,
  SUBSCRIPTION_PROTOCOL,
} from "./protocol.ts";
import { socketAuthorityOf } from "./socket-authority.ts";
import { limitsOf, refuseOverCap, type SocketAttachment, socketTags } from "./socket-caps.ts";

/** Subscriptions one socket may hold. */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 100;
/** Largest frame a client may send. */
export const MAX_CLIENT_FRAME_BYTES = 64 * 1024;
/** Largest value pushed; a bigger result ends its subscription with an error. */
export const MAX_VALUE_BYTES = 1024 * 1024;
const MAX_ID_LENGTH = 64;
const KV_PREFIX = "svc:ws:";

/** What survives hibernation for a socket (kept in the shard's key-value storage). */
interface StoredSocket {
  grant: SocketGrant;
  shardKey: string;
  /** The client instance, for acknowledging its mutations (see {@link MutationAcknowledgements}). */
  clientId?: string;
  subscriptions: { id: string; path: string; args: unknown }[];
}

interface Subscription {
  id: string;
  path: string;
  args: unknown;
  socket: SocketState;
  group: QueryGroup;
  /** The last value sent to this socket, encoded; pushes happen only when it changes. */
  last: string | undefined;
  ended: boolean;
}

/**
 * Subscriptions that must see the same result: same query, same arguments,
 * same caller (identity and credentials). A commit runs the query once per
 * group, not once per subscriber: 1,000 tabs of 10 users watching one list
 * cost 10 runs.
 */
interface QueryGroup {
  key: string;
  path: string;
  args: unknown;
  grant: SocketGrant;
  shardKey: string;
  members: Set<Subscription>;
  /** Tables the last run read; `null` until it ran in this isolate (re-run on any commit). */
  reads: ReadonlySet<string> | null;
  /** The last result, encoded, with the commit count its run started at (or the error that ended the group). */
  result: { encoded: string; seen: number } | { error: unknown } | undefined;
  /** The runs in flight, settled when the last is delivered; `dirty` asks for one more (latest value, never a queue). */
  running: Promise<void> | undefined;
  dirty: boolean;
}

interface SocketState {
  id: string;
  ws: WebSocket;
  stored: StoredSocket;
  subscriptions: Map<string, Subscription>;
  /** Frames the client may still send (in memory: a woken socket starts full). */
  frames: FrameBudget;
  /**
   * The upgrade request's headers, to resolve the caller again (in memory
   * only: an API key never reaches storage). A socket woken from
   * hibernation has the grant's stored cookie and `authorization` instead,
   * and an API key's socket nothing: it is asked to reconnect.
   */
  credentials?: Record<string, string>;
}

/**
 * The shard's side of live queries. Sockets are accepted with the
 * hibernation API, so an idle one costs no CPU and survives eviction of the
 * object; what a socket subscribed to is kept in storage and rebuilt on
 * wake-up. After each commit the subscriptions whose read set contains a
 * written table re-run, each under its own subscriber's identity (so RLS
 * applies per subscriber), and a value is pushed only when it changed.
 */
export class SubscriptionHub {
  readonly #state: DurableObjectState;
  readonly #dispatcher: Dispatcher;
  readonly #recorder: ShardRunRecorder | undefined;
  readonly #sockets = new Map<string, SocketState>();
  readonly #groups = new Map<string, QueryGroup>();
  readonly #acks = new MutationAcknowledgements();
  /** Whether sockets accepted before this object last woke are back in memory. */
  #restored = false;

  constructor(state: DurableObjectState, dispatcher: Dispatcher, recorder?: ShardRunRecorder) {
    this.#state = state;
    this.#dispatcher = dispatcher;
    this.#recorder = recorder;
  }

  /**
   * Accepts an upgrade the worker has already authorized (see {@link GRANT_HEADER}),
   * unless the shard already holds as many sockets of its address or user as
   * the grant's limits allow (429).
   */
  async accept(request: Request): Promise<Response> {
    const raw = request.headers.get(GRANT_HEADER);
    const shardKey = new URL(request.url).searchParams.get("shardKey") ?? "default";
    if (raw === null || request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("svc: subscriptions are opened through the worker", { status: 400 });
    }
    const grant = decodeOpaqueJson(raw) as SocketGrant | undefined;
    if (grant === undefined) return new Response("svc: unreadable socket grant", { status: 400 });
    const tags = await socketTags(grant);
    const refusal = refuseOverCap(this.#state, tags, limitsOf(grant));
    if (refusal !== undefined) return refusal;
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    const id = crypto.randomUUID();
    this.#state.acceptWebSocket(server, tags.user === undefined ? [tags.ip] : [tags.ip, tags.user]);
    server.serializeAttachment({ id, until: grant.authorizedUntil } satisfies SocketAttachment);
    const clientId = new URL(request.url).searchParams.get(CLIENT_ID_PARAM);
    const stored: StoredSocket = { grant, shardKey, subscriptions: [] };
    if (clientId !== null && isClientId(clientId)) stored.clientId = clientId;
    this.#state.storage.kv.put(KV_PREFIX + id, stored);
    const credentials: Record<string, string> = {};
    for (const [name, value] of request.headers)
      if (name !== GRANT_HEADER) credentials[name] = value;
    this.#sockets.set(id, {
      id,
      ws: server,
      stored,
      subscriptions: new Map(),
      frames: new FrameBudget(limitsOf(grant)),
      credentials,
    });
    void this.#scheduleExpiry(grant.authorizedUntil);
    return new Response(null, {
      status: 101,
      webSocket: client,
      headers: { "sec-websocket-protocol": SUBSCRIPTION_PROTOCOL },
    });
  }

  /** Handles one client frame. */
  async message(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    const socket = this.#socketOf(ws);
    if (socket === undefined) return;
    // Every frame counts, malformed ones included, before any work is done for it.
    if (!socket.frames.spend()) {
      const { framesPerSecond } = limitsOf(socket.stored.grant);
      ws.close(CLOSE.TOO_MANY_FRAMES, `too many frames; at most ${framesPerSecond} per second`);
      return this.close(ws);
    }
    const size =
      typeof data === "string" ? new TextEncoder().encode(data).byteLength : data.byteLength;
    if (size > MAX_CLIENT_FRAME_BYTES) {
      ws.close(CLOSE.TOO_BIG, `frames are limited to ${MAX_CLIENT_FRAME_BYTES} bytes`);
      return this.close(ws);
    }
    let frame: ClientFrame;
    try {
      frame = parseFrame(typeof data === "string" ? data : new TextDecoder().decode(data));
    } catch (error) {
      return send(socket, { type: "error", error: toProblem(normalizeError(error)) });
    }
    if (frame.type === "unsubscribe") {
      const subscription = socket.subscriptions.get(frame.id);
      if (subscription) this.#end(subscription);
      return this.#persist(socket);
    }
    if (socket.subscriptions.has(frame.id)) {
      return send(socket, {
        type: "error",
        id: frame.id,
        error: toProblem(new SvcError("BAD_REQUEST", `Subscription id ${frame.id} is in use.`)),
      });
    }
    const refused = await this.#admitSubscribe(socket, frame.path);
    if (refused === "closed") return;
    if (refused !== undefined) return send(socket, { type: "error", id: frame.id, error: refused });
    if (socket.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_SOCKET) {
      const error = new SvcError(
        "BAD_REQUEST",
        `At most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions per connection; open another or unsubscribe.`,
      );
      return send(socket, { type: "error", id: frame.id, error: toProblem(error) });
    }
    const subscription = this.#join(socket, frame.id, frame.path, frame.args);
    this.#persist(socket);
    const { group } = subscription;
    // A group whose result is current answers at once; otherwise its run will.
    if (group.result !== undefined && group.running === undefined) this.#deliver(subscription);
    else await this.#run(group);
  }

  /**
   * Asks the worker's authority about a subscribe: a caller whose credential
   * no longer resolves to the socket's identity (a revoked key or session, a
   * banned user) has the socket closed (`4001`, reconnect), within the
   * resolver's own cache time, as REST refuses it; an API key spends one
   * unit of its bucket per subscribe (the error frame is the 429's problem).
   */
  async #admitSubscribe(
    socket: SocketState,
    path: string,
  ): Promise<ProblemDetails | "closed" | undefined> {
    const { grant } = socket.stored;
    const authority = socketAuthorityOf(grant.authority);
    if (authority === undefined || grant.identity === null) return undefined;
    const credentials =
      socket.credentials ?? (grant.identity.apiKey === undefined ? grant.headers : undefined);
    let now: Identity | null = null;
    try {
      if (credentials !== undefined) now = await authority.resolve(credentials);
    } catch {
      now = null;
    }
    const apiKey = grant.identity.apiKey;
    if (now?.userId !== grant.identity.userId || now?.apiKey?.id !== apiKey?.id) {
      socket.ws.close(CLOSE.REAUTHENTICATE, "credential no longer valid; reconnect");
      this.close(socket.ws);
      return "closed";
    }
    if (apiKey === undefined) return undefined;
    try {
      await authority.spend(apiKey, path);
      return undefined;
    } catch (error) {
      return toProblem(normalizeError(error));
    }
  }

  /** Forgets a closed socket. */
  close(ws: WebSocket): void {
    const id = attachmentId(ws);
    if (id === undefined) return;
    const socket = this.#sockets.get(id);
    for (const subscription of [...(socket?.subscriptions.values() ?? [])]) this.#end(subscription);
    this.#sockets.delete(id);
    this.#state.storage.kv.delete(KV_PREFIX + id);
  }

  /**
   * Re-runs every query group that read one of `tables` (or whose reads are
   * not known yet). For a client's mutation (`mutationId`), once all those
   * runs delivered, that client's sockets hear `applied`.
   */
  commit(tables: ReadonlySet<string>, mutationId?: string): void {
    this.#restoreAll();
    this.#acks.committed(mutationId);
    const runs: Promise<void>[] = [];
    for (const group of this.#groups.values()) {
      const touched = group.reads === null || [...tables].some((table) => group.reads?.has(table));
      if (touched && tables.size > 0) runs.push(this.#run(group));
    }
    if (mutationId !== undefined) void Promise.all(runs).then(() => this.#applied(mutationId));
  }

  /** Tells the mutation's client that every subscription of its sockets reflects it. */
  #applied(mutationId: string): void {
    const clientId = this.#acks.settle(mutationId) ?? clientOfMutation(mutationId);
    if (clientId === undefined) return;
    for (const socket of this.#sockets.values()) {
      if (socket.stored.clientId === clientId)
        send(socket, { type: "applied", mutation: mutationId });
    }
  }

  /**
   * Brings every socket accepted before the object woke (hibernation or
   * eviction) back into memory, once per object instance: sockets accepted
   * since are in memory already, so commits need not walk all sockets.
   */
  #restoreAll(): void {
    if (this.#restored) return;
    for (const ws of this.#state.getWebSockets()) this.#socketOf(ws);
    this.#restored = true;
  }

  /** Closes sockets whose authority expired, so their clients reconnect and are resolved again. */
  async alarm(): Promise<void> {
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const ws of this.#state.getWebSockets()) {
      const socket = this.#socketOf(ws);
      if (socket === undefined) continue;
      const until = socket.stored.grant.authorizedUntil;
      if (until <= now) {
        ws.close(CLOSE.REAUTHENTICATE, "authority expired; reconnect");
        this.close(ws);
      } else next = Math.min(next, until);
    }
    if (next !== Number.POSITIVE_INFINITY) await this.#state.storage.setAlarm(next);
  }

  async #scheduleExpiry(until: number): Promise<void> {
    const current = await this.#state.storage.getAlarm();
    if (current === null || current > until) await this.#state.storage.setAlarm(until);
  }

  /** Adds a subscription to its query group (creating the group on first use). */
  #join(socket: SocketState, id: string, path: string, args: unknown): Subscription {
    const { grant, shardKey } = socket.stored;
    const key = stringifyJson([path, args ?? {}, grant.identity, grant.headers]);
    let group = this.#groups.get(key);
    if (group === undefined) {
      group = {
        key,
        path,
        args,
        grant,
        shardKey,
        members: new Set(),
        reads: null,
        result: undefined,
        running: undefined,
        dirty: false,
      };
      this.#groups.set(key, group);
    }
    const subscription: Subscription = {
      id,
      path,
      args,
      socket,
      group,
      last: undefined,
      ended: false,
    };
    group.members.add(subscription);
    socket.subscriptions.set(id, subscription);
    return subscription;
  }

  /** Ends a subscription; an empty group is dropped. */
  #end(subscription: Subscription): void {
    subscription.ended = true;
    subscription.socket.subscriptions.delete(subscription.id);
    const { group } = subscription;
    group.members.delete(subscription);
    if (group.members.size === 0) this.#groups.delete(group.key);
  }

  /**
   * Runs a group's query and delivers the result to its members; a call
   * during a run asks for one more (bursts coalesce). Settles when no run is
   * left, so a commit knows when its re-runs were delivered.
   */
  #run(group: QueryGroup): Promise<void> {
    if (group.running !== undefined) {
      group.dirty = true;
      return group.running;
    }
    const loop = async () => {
      try {
        do {
          group.dirty = false;
          await this.#runOnce(group);
        } while (group.dirty && group.members.size > 0);
      } finally {
        group.running = undefined;
      }
    };
    group.running = loop();
    return group.running;
  }

  async #runOnce(group: QueryGroup): Promise<void> {
    const seen = this.#acks.current;
    try {
      const facts = { entry: "ws", route: group.path, shardKey: group.shardKey } as const;
      const run = () => {
        const procedure = this.#dispatcher.subscribableProcedure(group.path);
        refuseOutOfScope(group.grant.identity?.apiKey, { path: group.path, kind: "query" });
        return this.#dispatcher.runTracked(group.path, procedure, group.args, {
          identity: group.grant.identity,
          service: null,
          transport: "ws",
          requestId: crypto.randomUUID(),
          shardKey: group.shardKey,
          headers: group.grant.headers,
        });
      };
      const { value, reads } = await (this.#recorder === undefined
        ? run()
        : this.#recorder.run(
            group.grant.recording,
            { ...facts, caller: callerOf(group.grant.identity) },
            run,
          ));
      group.reads = reads;
      const encoded = stringifyJson(value);
      if (encoded.length > MAX_VALUE_BYTES) {
        throw new SvcError(
          "PAYLOAD_TOO_LARGE",
          `The result is over ${MAX_VALUE_BYTES} bytes; subscribe to less.`,
        );
      }
      group.result = { encoded, seen };
    } catch (error) {
      group.result = { error };
    }
    for (const subscription of [...group.members]) this.#deliver(subscription);
  }

  /** Sends a group's current result to one member if it differs from what that member has. */
  #deliver(subscription: Subscription): void {
    const { group, socket } = subscription;
    const result = group.result;
    if (result === undefined || subscription.ended) return;
    if ("error" in result) {
      this.#end(subscription);
      this.#persist(socket);
      const error = toProblem(normalizeError(result.error));
      send(socket, { type: "error", id: subscription.id, error });
      return;
    }
    if (result.encoded === subscription.last) return;
    subscription.last = result.encoded;
    const { clientId } = socket.stored;
    const includes = clientId === undefined ? [] : this.#acks.includedIn(clientId, result.seen);
    const tail = includes.length > 0 ? `,"includes":${JSON.stringify(includes)}` : "";
    try {
      socket.ws.send(
        `{"type":"value","id":${JSON.stringify(subscription.id)},"value":${result.encoded}${tail}}`,
      );
    } catch {
      // The socket closed meanwhile; its close handler forgets it.
    }
  }

  #socketOf(ws: WebSocket): SocketState | undefined {
    const id = attachmentId(ws);
    if (id === undefined) return undefined;
    const known = this.#sockets.get(id);
    if (known !== undefined) return known;
    // Woken from hibernation: rebuild from storage; reads are learnt on the next run.
    const stored = this.#state.storage.kv.get<StoredSocket>(KV_PREFIX + id);
    if (stored === undefined) return undefined;
    const socket: SocketState = {
      id,
      ws,
      stored,
      subscriptions: new Map(),
      frames: new FrameBudget(limitsOf(stored.grant)),
    };
    this.#sockets.set(id, socket);
    for (const entry of stored.subscriptions) this.#join(socket, entry.id, entry.path, entry.args);
    return socket;
  }

  #persist(socket: SocketState): void {
    socket.stored.subscriptions = [...socket.subscriptions.values()].map(({ id, path, args }) => ({
      id,
      path,
      args,
    }));
    this.#state.storage.kv.put(KV_PREFIX + socket.id, socket.stored);
  }
}

function attachmentId(ws: WebSocket): string | undefined {
  const attachment = ws.deserializeAttachment() as { id?: unknown } | null;
  return typeof attachment?.id === "string" ? attachment.id : undefined;
}

function send(socket: SocketState, frame: ServerFrame): void {
  try {
    socket.ws.send(JSON.stringify(frame));
  } catch {
    // The socket closed meanwhile; its close handler forgets it.
  }
}

/** Parses and checks one client frame; anything else is `BAD_REQUEST`. */
function parseFrame(text: string): ClientFrame {
  let frame: unknown;
  try {
    frame = parseJson(text);
  } catch {
    throw new SvcError("BAD_REQUEST", "Frames must be JSON.");
  }
  const record = frame as Record<string, unknown> | null;
  const id = record?.id;
  if (typeof id !== "string" || id.length === 0 || id.length > MAX_ID_LENGTH) {
    throw new SvcError(
      "BAD_REQUEST",
      `A frame needs an "id" string of 1 to ${MAX_ID_LENGTH} characters.`,
    );
  }
  if (record?.type === "unsubscribe") return { type: "unsubscribe", id };
  if (record?.type === "subscribe") {
    if (typeof record.path !== "string")
      throw new SvcError("BAD_REQUEST", 'A subscribe frame needs a "path" string.');
    const args = record.args;
    if (args !== undefined && args !== null && (typeof args !== "object" || Array.isArray(args)))
      throw new SvcError("BAD_REQUEST", "Subscription args must be a JSON object.");
    return { type: "subscribe", id, path: record.path, args };
  }
  throw new SvcError("BAD_REQUEST", 'A frame\'s "type" is "subscribe" or "unsubscribe".');
}
