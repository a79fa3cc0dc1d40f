import { normalizeError } from "../errors/normalize.ts";
import { toProblem } from "../errors/problem.ts";
import { SvcError } from "../errors/svc-error.ts";
import type { Dispatcher } from "../shard/dispatch.ts";
import { parseJson, stringifyJson } from "../values/json-codec.ts";
import {
  CLOSE,
  type ClientFrame,
  GRANT_HEADER,
  type ServerFrame,
  type SocketGrant,
  SUBSCRIPTION_PROTOCOL,
} from "./protocol.ts";

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
  subscriptions: { id: string; path: string; args: unknown }[];
}

interface Subscription {
  id: string;
  path: string;
  args: unknown;
  /** Tables the last run read; `null` until it ran in this isolate (re-run on any commit). */
  reads: ReadonlySet<string> | null;
  /** The last value sent, encoded; pushes happen only when it changes. */
  last: string | undefined;
  /** A run is in flight; `dirty` asks for one more after it (latest value, never a queue). */
  running: boolean;
  dirty: boolean;
  ended: boolean;
}

interface SocketState {
  id: string;
  ws: WebSocket;
  stored: StoredSocket;
  subscriptions: Map<string, Subscription>;
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
  readonly #sockets = new Map<string, SocketState>();

  constructor(state: DurableObjectState, dispatcher: Dispatcher) {
    this.#state = state;
    this.#dispatcher = dispatcher;
  }

  /** Accepts an upgrade the worker has already authorized (see {@link GRANT_HEADER}). */
  accept(request: Request): Response {
    const raw = request.headers.get(GRANT_HEADER);
    const shardKey = new URL(request.url).searchParams.get("shardKey") ?? "default";
    if (raw === null || request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("svc: subscriptions are opened through the worker", { status: 400 });
    }
    const grant = JSON.parse(raw) as SocketGrant;
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    const id = crypto.randomUUID();
    this.#state.acceptWebSocket(server);
    server.serializeAttachment({ id });
    const stored: StoredSocket = { grant, shardKey, subscriptions: [] };
    this.#state.storage.kv.put(KV_PREFIX + id, stored);
    this.#sockets.set(id, { id, ws: server, stored, subscriptions: new Map() });
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
      if (subscription) subscription.ended = true;
      socket.subscriptions.delete(frame.id);
      return this.#persist(socket);
    }
    if (socket.subscriptions.has(frame.id)) {
      return send(socket, {
        type: "error",
        id: frame.id,
        error: toProblem(new SvcError("BAD_REQUEST", `Subscription id ${frame.id} is in use.`)),
      });
    }
    if (socket.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_SOCKET) {
      const error = new SvcError(
        "BAD_REQUEST",
        `At most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions per connection; open another or unsubscribe.`,
      );
      return send(socket, { type: "error", id: frame.id, error: toProblem(error) });
    }
    const subscription: Subscription = {
      id: frame.id,
      path: frame.path,
      args: frame.args,
      reads: null,
      last: undefined,
      running: false,
      dirty: false,
      ended: false,
    };
    socket.subscriptions.set(frame.id, subscription);
    this.#persist(socket);
    await this.#run(socket, subscription);
  }

  /** Forgets a closed socket. */
  close(ws: WebSocket): void {
    const id = attachmentId(ws);
    if (id === undefined) return;
    const socket = this.#sockets.get(id);
    for (const subscription of socket?.subscriptions.values() ?? []) subscription.ended = true;
    this.#sockets.delete(id);
    this.#state.storage.kv.delete(KV_PREFIX + id);
  }

  /** Re-runs every subscription that read one of `tables` (or whose reads are not known yet). */
  commit(tables: ReadonlySet<string>): void {
    for (const ws of this.#state.getWebSockets()) {
      const socket = this.#socketOf(ws);
      if (socket === undefined) continue;
      for (const subscription of socket.subscriptions.values()) {
        const touched =
          subscription.reads === null ||
          [...tables].some((table) => subscription.reads?.has(table));
        if (touched) void this.#run(socket, subscription);
      }
    }
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

  /** Runs a subscription's query and pushes its value if it changed; coalesces bursts. */
  async #run(socket: SocketState, subscription: Subscription): Promise<void> {
    if (subscription.running) {
      subscription.dirty = true;
      return;
    }
    subscription.running = true;
    try {
      do {
        subscription.dirty = false;
        await this.#runOnce(socket, subscription);
      } while (subscription.dirty && !subscription.ended);
    } finally {
      subscription.running = false;
    }
  }

  async #runOnce(socket: SocketState, subscription: Subscription): Promise<void> {
    const { grant, shardKey } = socket.stored;
    try {
      const procedure = this.#dispatcher.subscribableProcedure(subscription.path);
      const { value, reads } = await this.#dispatcher.runTracked(
        subscription.path,
        procedure,
        subscription.args,
        {
          identity: grant.identity,
          service: null,
          transport: "ws",
          requestId: crypto.randomUUID(),
          shardKey,
          headers: grant.headers,
        },
      );
      if (subscription.ended) return;
      subscription.reads = reads;
      const encoded = stringifyJson(value);
      if (encoded === subscription.last) return;
      if (encoded.length > MAX_VALUE_BYTES) {
        throw new SvcError(
          "PAYLOAD_TOO_LARGE",
          `The result is over ${MAX_VALUE_BYTES} bytes; subscribe to less.`,
        );
      }
      subscription.last = encoded;
      socket.ws.send(`{"type":"value","id":${JSON.stringify(subscription.id)},"value":${encoded}}`);
    } catch (error) {
      if (subscription.ended) return;
      subscription.ended = true;
      socket.subscriptions.delete(subscription.id);
      this.#persist(socket);
      send(socket, { type: "error", id: subscription.id, error: toProblem(normalizeError(error)) });
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
    const subscriptions = new Map<string, Subscription>();
    for (const { id: subId, path, args } of stored.subscriptions) {
      subscriptions.set(subId, {
        id: subId,
        path,
        args,
        reads: null,
        last: undefined,
        running: false,
        dirty: false,
        ended: false,
      });
    }
    const socket: SocketState = { id, ws, stored, subscriptions };
    this.#sockets.set(id, socket);
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
