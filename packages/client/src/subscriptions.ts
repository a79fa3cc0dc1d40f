import { fromJsonValue, stringifyJson } from "@svc/server/json";
import { errorFromProblem, type SvcClientError } from "./client-error.ts";

/** Where a shard's subscription socket stands. */
export type ConnectionState = "connecting" | "open" | "reconnecting" | "closed";

/** What {@link SubscriptionSockets} needs from the client's options. */
export interface SocketOptions {
  url: string | URL;
  bearer?: string | (() => string | null | undefined);
  cookie?: string;
  headers?: Record<string, string>;
  /** Told about every change of a shard socket's state. */
  onConnectionStateChange?: (
    state: ConnectionState,
    info: { shardKey: string; attempt: number },
  ) => void;
  /** The WebSocket class (default: the global one, in browsers and Node ≥ 22). */
  WebSocket?: typeof WebSocket;
}

/** What the live-query store hears from the sockets, besides values. */
export interface SocketEvents {
  /** A shard socket changed state. */
  state(shardKey: string, state: ConnectionState, attempt: number): void;
  /** Every subscription of `shardKey`'s socket reflects this mutation of ours now. */
  applied(shardKey: string, mutationId: string): void;
  /**
   * Every subscription of `shardKey`'s socket has had its first answer since
   * the socket opened as number `opening` (see {@link SubscriptionSockets.openings}).
   */
  synced(shardKey: string, opening: number): void;
}

/** A subscription's callbacks: its value with the mutations it includes, or its end. */
export interface SubscriptionHandlers {
  onValue: (value: unknown, includes: readonly string[]) => void;
  onError?: ((error: SvcClientError) => void) | undefined;
}

/** One live subscription as the client keeps it. */
interface Entry extends SubscriptionHandlers {
  path: string;
  args: unknown;
  /** The last value delivered, encoded: the callback runs only when it changes. */
  last: string | undefined;
}

interface ServerFrame {
  type?: string;
  id?: string;
  value?: unknown;
  includes?: unknown;
  mutation?: unknown;
  error?: { status?: number };
}

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;
const REAUTHENTICATE = 4001;

function base64url(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");
}

/**
 * Closes a socket svc no longer wants. One still connecting is closed once it
 * opens: closing it earlier makes browsers log "WebSocket is closed before the
 * connection is established" (seen at every sign-in: the new page's
 * subscriptions connect just before the session change reconnects them).
 */
function closeCleanly(ws: WebSocket, reason: string): void {
  if (ws.readyState === 0)
    ws.addEventListener("open", () => ws.close(1000, reason), { once: true });
  else ws.close(1000, reason);
}

/** One socket per shard, shared by that shard's subscriptions; reconnects with backoff. */
class ShardSocket {
  readonly #owner: SubscriptionSockets;
  readonly #shardKey: string;
  readonly #entries = new Map<string, Entry>();
  #ws: WebSocket | undefined;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #nextId = 0;
  /** Entries still waiting for their first answer since the socket opened. */
  #unanswered = new Set<string>();
  #opening = 0;

  constructor(owner: SubscriptionSockets, shardKey: string) {
    this.#owner = owner;
    this.#shardKey = shardKey;
  }

  get isOpen(): boolean {
    return this.#ws?.readyState === 1;
  }

  add(entry: Entry): () => void {
    const id = String(++this.#nextId);
    this.#entries.set(id, entry);
    if (this.#ws === undefined && this.#timer === undefined) this.#connect();
    else if (this.isOpen) this.#subscribe(id, entry);
    return () => {
      if (!this.#entries.delete(id)) return;
      this.#answered(id);
      if (this.isOpen) this.#ws?.send(JSON.stringify({ type: "unsubscribe", id }));
      if (this.#entries.size === 0) this.#shutDown();
    };
  }

  /** Drops the socket and opens a new one now (new credentials, same subscriptions). */
  reconnect(): void {
    // The first values under the new credentials must reach the store even if they look the same.
    for (const entry of this.#entries.values()) entry.last = undefined;
    const ws = this.#ws;
    this.#ws = undefined;
    if (ws !== undefined) closeCleanly(ws, "reauthenticating");
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#attempt = 0;
    this.#connect();
  }

  #state(state: ConnectionState): void {
    this.#owner.emitState(this.#shardKey, state, this.#attempt);
  }

  #connect(): void {
    this.#timer = undefined;
    this.#state(this.#attempt === 0 ? "connecting" : "reconnecting");
    const options = this.#owner.options;
    const url = new URL("/_svc/ws", options.url);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("shardKey", this.#shardKey);
    url.searchParams.set("clientId", this.#owner.clientId);
    const protocols = ["svc.v1"];
    const bearer = typeof options.bearer === "function" ? options.bearer() : options.bearer;
    if (bearer) protocols.push(`svc.bearer.${base64url(bearer)}`);
    const Socket = options.WebSocket ?? globalThis.WebSocket;
    const headers = {
      ...options.headers,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    };
    // Browsers take protocols only; Node's WebSocket (undici) also takes headers, for a cookie.
    const ws =
      Object.keys(headers).length > 0
        ? new (Socket as unknown as new (url: string, init: object) => WebSocket)(url.toString(), {
            protocols,
            headers,
          })
        : new Socket(url.toString(), protocols);
    this.#ws = ws;
    ws.addEventListener("open", () => {
      if (this.#ws !== ws) return;
      this.#attempt = 0;
      this.#opening = this.#owner.nextOpening();
      this.#unanswered = new Set(this.#entries.keys());
      this.#state("open");
      for (const [id, entry] of this.#entries) this.#subscribe(id, entry);
      this.#answered(undefined);
    });
    ws.addEventListener("message", (event) => {
      if (this.#ws === ws) this.#receive(String(event.data));
    });
    ws.addEventListener("close", (event) => {
      if (this.#ws !== ws) return;
      this.#ws = undefined;
      if (this.#entries.size === 0) return;
      // Expired authority reconnects at once (the server resolves the identity again).
      const delay =
        event.code === REAUTHENTICATE
          ? 0
          : Math.min(FIRST_RETRY_MS * 2 ** this.#attempt, MAX_RETRY_MS) *
            (0.8 + Math.random() * 0.4);
      this.#attempt++;
      this.#state("reconnecting");
      this.#timer = setTimeout(() => this.#connect(), delay);
    });
  }

  #subscribe(id: string, entry: Entry): void {
    this.#ws?.send(
      stringifyJson({ type: "subscribe", id, path: entry.path, args: entry.args ?? {} }),
    );
  }

  /** Notes an entry's first answer since opening; tells the owner once all have one. */
  #answered(id: string | undefined): void {
    if (id !== undefined && !this.#unanswered.delete(id)) return;
    if (this.#unanswered.size === 0 && this.isOpen) {
      this.#owner.events?.synced(this.#shardKey, this.#opening);
    }
  }

  #receive(text: string): void {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (frame.type === "applied" && typeof frame.mutation === "string") {
      this.#owner.events?.applied(this.#shardKey, frame.mutation);
      return;
    }
    const entry = frame.id === undefined ? undefined : this.#entries.get(frame.id);
    if (entry === undefined) return;
    if (frame.type === "value") {
      const includes = Array.isArray(frame.includes) ? (frame.includes as string[]) : [];
      const encoded = JSON.stringify(frame.value);
      if (encoded !== entry.last || includes.length > 0) {
        entry.last = encoded;
        entry.onValue(fromJsonValue(frame.value), includes);
      }
      this.#answered(frame.id);
    } else if (frame.type === "error") {
      this.#entries.delete(frame.id as string);
      entry.onError?.(errorFromProblem(frame.error?.status ?? 500, frame.error));
      this.#answered(frame.id);
      if (this.#entries.size === 0) this.#shutDown();
    }
  }

  #shutDown(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const ws = this.#ws;
    this.#ws = undefined;
    if (ws !== undefined) closeCleanly(ws, "no subscriptions left");
    this.#state("closed");
    this.#owner.forget(this.#shardKey);
  }
}

/**
 * The subscription sockets of one client, by shard key. Each socket names the
 * client (`clientId`), so the shard can acknowledge the client's mutations on
 * it (see docs/subscriptions.md, "Mutation acknowledgements").
 */
export class SubscriptionSockets {
  readonly options: SocketOptions;
  readonly clientId: string;
  events: SocketEvents | undefined;
  readonly #sockets = new Map<string, ShardSocket>();
  #openings = 0;

  constructor(options: SocketOptions, clientId: string) {
    this.options = options;
    this.clientId = clientId;
  }

  /** Adds a subscription on `shardKey`'s socket (opening it if needed); answers its stop function. */
  add(shardKey: string, path: string, args: unknown, handlers: SubscriptionHandlers): () => void {
    let socket = this.#sockets.get(shardKey);
    if (socket === undefined) {
      socket = new ShardSocket(this, shardKey);
      this.#sockets.set(shardKey, socket);
    }
    return socket.add({ path, args, ...handlers, last: undefined });
  }

  /** Whether `shardKey`'s socket is open now (its subscriptions are live). */
  isOpen(shardKey: string): boolean {
    return this.#sockets.get(shardKey)?.isOpen ?? false;
  }

  /** Whether any subscription runs on `shardKey` (its socket is open or on its way). */
  has(shardKey: string): boolean {
    return this.#sockets.has(shardKey);
  }

  /** The number of socket openings so far: the store compares it with `synced`. */
  get openings(): number {
    return this.#openings;
  }

  /** Reopens every socket now, so the server resolves the caller again (sign-in, sign-out). */
  reconnectAll(): void {
    for (const socket of this.#sockets.values()) socket.reconnect();
  }

  /** @internal */
  nextOpening(): number {
    return ++this.#openings;
  }

  /** @internal */
  emitState(shardKey: string, state: ConnectionState, attempt: number): void {
    this.options.onConnectionStateChange?.(state, { shardKey, attempt });
    this.events?.state(shardKey, state, attempt);
  }

  /** @internal */
  forget(shardKey: string): void {
    this.#sockets.delete(shardKey);
  }
}
