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

/** One live subscription as the client keeps it. */
interface Entry {
  path: string;
  args: unknown;
  onValue: (value: unknown) => void;
  onError: ((error: SvcClientError) => void) | undefined;
  /** The last value delivered, encoded: the callback runs only when it changes. */
  last: string | undefined;
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

/** One socket per shard, shared by that shard's subscriptions; reconnects with backoff. */
class ShardSocket {
  readonly #options: SocketOptions;
  readonly #shardKey: string;
  readonly #entries = new Map<string, Entry>();
  readonly #onEmpty: () => void;
  #ws: WebSocket | undefined;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #nextId = 0;

  constructor(options: SocketOptions, shardKey: string, onEmpty: () => void) {
    this.#options = options;
    this.#shardKey = shardKey;
    this.#onEmpty = onEmpty;
  }

  add(entry: Entry): () => void {
    const id = String(++this.#nextId);
    this.#entries.set(id, entry);
    if (this.#ws === undefined && this.#timer === undefined) this.#connect();
    else if (this.#ws?.readyState === 1) this.#subscribe(id, entry);
    return () => {
      if (!this.#entries.delete(id)) return;
      if (this.#ws?.readyState === 1) this.#ws.send(JSON.stringify({ type: "unsubscribe", id }));
      if (this.#entries.size === 0) this.#shutDown();
    };
  }

  #state(state: ConnectionState): void {
    this.#options.onConnectionStateChange?.(state, {
      shardKey: this.#shardKey,
      attempt: this.#attempt,
    });
  }

  #connect(): void {
    this.#timer = undefined;
    this.#state(this.#attempt === 0 ? "connecting" : "reconnecting");
    const url = new URL("/_svc/ws", this.#options.url);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("shardKey", this.#shardKey);
    const protocols = ["svc.v1"];
    const bearer =
      typeof this.#options.bearer === "function" ? this.#options.bearer() : this.#options.bearer;
    if (bearer) protocols.push(`svc.bearer.${base64url(bearer)}`);
    const Socket = this.#options.WebSocket ?? globalThis.WebSocket;
    const headers = {
      ...this.#options.headers,
      ...(this.#options.cookie ? { cookie: this.#options.cookie } : {}),
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
      this.#attempt = 0;
      this.#state("open");
      for (const [id, entry] of this.#entries) this.#subscribe(id, entry);
    });
    ws.addEventListener("message", (event) => this.#receive(String(event.data)));
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

  #receive(text: string): void {
    let frame: { type?: string; id?: string; value?: unknown; error?: { status?: number } };
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    const entry = frame.id === undefined ? undefined : this.#entries.get(frame.id);
    if (entry === undefined) return;
    if (frame.type === "value") {
      const encoded = JSON.stringify(frame.value);
      if (encoded === entry.last) return;
      entry.last = encoded;
      entry.onValue(fromJsonValue(frame.value));
    } else if (frame.type === "error") {
      this.#entries.delete(frame.id as string);
      entry.onError?.(errorFromProblem(frame.error?.status ?? 500, frame.error));
      if (this.#entries.size === 0) this.#shutDown();
    }
  }

  #shutDown(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const ws = this.#ws;
    this.#ws = undefined;
    ws?.close(1000, "no subscriptions left");
    this.#state("closed");
    this.#onEmpty();
  }
}

/** The subscription sockets of one client, by shard key. */
export class SubscriptionSockets {
  readonly #options: SocketOptions;
  readonly #sockets = new Map<string, ShardSocket>();

  constructor(options: SocketOptions) {
    this.#options = options;
  }

  /** Adds a subscription on `shardKey`'s socket (opening it if needed); answers its stop function. */
  add(
    shardKey: string,
    path: string,
    args: unknown,
    onValue: (value: unknown) => void,
    onError?: (error: SvcClientError) => void,
  ): () => void {
    let socket = this.#sockets.get(shardKey);
    if (socket === undefined) {
      socket = new ShardSocket(this.#options, shardKey, () => this.#sockets.delete(shardKey));
      this.#sockets.set(shardKey, socket);
    }
    return socket.add({ path, args, onValue, onError, last: undefined });
  }
}
