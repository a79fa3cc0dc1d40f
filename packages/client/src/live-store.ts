import { stringifyJson } from "@svc/server/json";
import type { SvcClientError } from "./client-error.ts";
import {
  type OptimisticLayer,
  type OptimisticUpdate,
  replay,
  type ViewEntry,
} from "./optimistic.ts";
import type { ConnectionState, SubscriptionSockets } from "./subscriptions.ts";

/** A live query as a component sees it. One object per change, so `===` tells changes apart. */
export type QueryState<T> =
  | { readonly status: "loading"; readonly value: undefined; readonly error: undefined }
  | { readonly status: "success"; readonly value: T; readonly error: undefined }
  | { readonly status: "error"; readonly value: undefined; readonly error: SvcClientError };

/**
 * A handle on one live query, in the shape `useSyncExternalStore` (and most
 * state libraries) take: `subscribe` starts watching (sharing the one server
 * subscription with every other watcher), `getSnapshot` reads the current
 * state without side effects.
 */
export interface QueryWatch<T> {
  getSnapshot(): QueryState<T>;
  subscribe(listener: () => void): () => void;
}

/** Where the client's live connection stands, over every shard it watches. */
export interface ConnectionStatus {
  /** `open` when every socket is open; `reconnecting` when one is retrying; `closed` with none. */
  readonly state: ConnectionState;
  /** Shards with a socket (open or on its way). */
  readonly sockets: number;
  /** The highest retry count among reconnecting sockets (0 when none). */
  readonly attempt: number;
}

/** The live-query store's needs from the client. */
export interface LiveStoreDeps {
  sockets: SubscriptionSockets;
  defaultShard: string;
  /** How long a query nobody watches keeps its subscription and value. */
  keepAliveMs: number;
  /** Sends a mutation (tagged with `mutationId` when given) and answers its value. */
  mutate(path: string, args: unknown, shardKey: string, mutationId?: string): Promise<unknown>;
}

type ServerState =
  | { status: "loading" }
  | { status: "success"; value: unknown }
  | { status: "error"; error: SvcClientError };

interface LiveEntry {
  key: string;
  path: string;
  args: unknown;
  shardKey: string;
  server: ServerState;
  includes: Set<string>;
  listeners: Set<() => void>;
  stop: (() => void) | undefined;
  release: ReturnType<typeof setTimeout> | undefined;
  snapshot: QueryState<unknown>;
}

const LOADING: QueryState<never> = Object.freeze({
  status: "loading",
  value: undefined,
  error: undefined,
});
const CLOSED: ConnectionStatus = Object.freeze({ state: "closed", sockets: 0, attempt: 0 });

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (
    value === null ||
    typeof value !== "object" ||
    Object.getPrototypeOf(value) !== Object.prototype
  )
    return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) out[key] = canonical(item);
  }
  return out;
}

/** The identity of a live query: shard, path and arguments (key order does not matter). */
export function queryKey(shardKey: string, path: string, args: unknown): string {
  return `${shardKey}\u0000${path}\u0000${stringifyJson(canonical(args ?? {}))}`;
}

/**
 * The client's live queries: one server subscription per (shard, procedure,
 * arguments) however many watchers, reference-counted, its value kept for
 * `keepAliveMs` after the last watcher leaves (a re-mount shows it at once);
 * optimistic updates replayed over the server values until the server says it
 * includes their mutation; and a reconnect under new credentials.
 * Framework-neutral: `@svc/react` is a thin layer over it.
 */
export class LiveStore {
  readonly #deps: LiveStoreDeps;
  readonly #entries = new Map<string, LiveEntry>();
  readonly #layers: OptimisticLayer[] = [];
  readonly #states = new Map<string, { state: ConnectionState; attempt: number }>();
  readonly #synced = new Map<string, number>();
  readonly #connectionListeners = new Set<() => void>();
  #connection: ConnectionStatus = CLOSED;
  #sequence = 0;

  constructor(deps: LiveStoreDeps) {
    this.#deps = deps;
    deps.sockets.events = {
      state: (shardKey, state, attempt) => this.#onState(shardKey, state, attempt),
      applied: (_shardKey, mutationId) => this.#drop((layer) => layer.mutationId === mutationId),
      synced: (shardKey, opening) => {
        this.#synced.set(shardKey, opening);
        this.#drop(
          (layer) =>
            layer.shardKey === shardKey &&
            layer.answeredAt !== undefined &&
            opening > layer.answeredAt,
        );
      },
    };
  }

  /** A handle on the live query; nothing reaches the server until something subscribes. */
  watch<T>(path: string, args: unknown, shardKey = this.#deps.defaultShard): QueryWatch<T> {
    const key = queryKey(shardKey, path, args);
    return {
      getSnapshot: () => (this.#entries.get(key)?.snapshot ?? LOADING) as QueryState<T>,
      subscribe: (listener) => {
        const entry = this.#retain(key, path, args ?? {}, shardKey);
        entry.listeners.add(listener);
        return () => {
          if (entry.listeners.delete(listener) && entry.listeners.size === 0) this.#release(entry);
        };
      },
    };
  }

  /**
   * Runs a mutation; with `update`, shows its predicted effect at once and
   * keeps it, rebased on every server value, until the server includes the
   * mutation (or drops it when the mutation fails).
   */
  async mutate(
    path: string,
    args: unknown,
    shardKey: string,
    update: OptimisticUpdate<unknown> | undefined,
  ): Promise<unknown> {
    if (update === undefined) return this.#deps.mutate(path, args, shardKey);
    const { sockets } = this.#deps;
    const layer: OptimisticLayer = {
      mutationId: `${sockets.clientId}:${++this.#sequence}`,
      shardKey,
      args,
      update,
      answeredAt: undefined,
    };
    const calledAt = sockets.openings;
    this.#layers.push(layer);
    this.#refresh();
    try {
      const value = await this.#deps.mutate(path, args, shardKey, layer.mutationId);
      // Nothing live on that shard, or a socket that synced after the call: its values include it.
      if (!sockets.has(shardKey) || (this.#synced.get(shardKey) ?? 0) > calledAt) {
        this.#drop((pending) => pending === layer);
      } else layer.answeredAt = calledAt;
      return value;
    } catch (error) {
      this.#drop((pending) => pending === layer);
      throw error;
    }
  }

  /**
   * Re-runs every live query under the caller's new credentials: values seen
   * under the old ones are cleared at once (a sign-out never leaves private
   * rows on screen) and the sockets reconnect.
   */
  reauthenticate(): void {
    for (const entry of this.#entries.values()) {
      entry.server = { status: "loading" };
      entry.includes.clear();
      if (entry.stop === undefined && entry.listeners.size > 0) this.#start(entry);
    }
    this.#refresh();
    this.#deps.sockets.reconnectAll();
  }

  /** The connection's state, for `useSyncExternalStore`. */
  readonly connection = {
    getSnapshot: (): ConnectionStatus => this.#connection,
    subscribe: (listener: () => void): (() => void) => {
      this.#connectionListeners.add(listener);
      return () => this.#connectionListeners.delete(listener);
    },
  };

  #retain(key: string, path: string, args: unknown, shardKey: string): LiveEntry {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      entry = {
        key,
        path,
        args,
        shardKey,
        server: { status: "loading" },
        includes: new Set(),
        listeners: new Set(),
        stop: undefined,
        release: undefined,
        snapshot: LOADING,
      };
      this.#entries.set(key, entry);
    }
    if (entry.release !== undefined) clearTimeout(entry.release);
    entry.release = undefined;
    if (entry.stop === undefined && entry.server.status !== "error") this.#start(entry);
    return entry;
  }

  #start(entry: LiveEntry): void {
    entry.stop = this.#deps.sockets.add(entry.shardKey, entry.path, entry.args, {
      onValue: (value, includes) => {
        entry.server = { status: "success", value };
        entry.includes = new Set(includes);
        this.#refresh();
      },
      onError: (error) => {
        entry.stop = undefined;
        entry.server = { status: "error", error };
        this.#refresh();
      },
    });
  }

  #release(entry: LiveEntry): void {
    const forget = () => {
      entry.release = undefined;
      entry.stop?.();
      entry.stop = undefined;
      this.#entries.delete(entry.key);
    };
    // A failed query is not kept: the next watcher tries again.
    if (entry.server.status === "error") forget();
    else entry.release = setTimeout(forget, this.#deps.keepAliveMs);
  }

  #drop(match: (layer: OptimisticLayer) => boolean): void {
    const before = this.#layers.length;
    for (let index = this.#layers.length - 1; index >= 0; index--) {
      if (match(this.#layers[index]!)) this.#layers.splice(index, 1);
    }
    if (this.#layers.length !== before) this.#refresh();
  }

  /** Recomputes what each query shows (server value, then updates) and tells whose changed. */
  #refresh(): void {
    const view = new Map<string, ViewEntry>();
    for (const entry of this.#entries.values()) {
      const loaded = entry.server.status === "success";
      view.set(entry.key, {
        path: entry.path,
        args: entry.args,
        shardKey: entry.shardKey,
        value: loaded ? (entry.server as { value: unknown }).value : undefined,
        includes: entry.includes,
        loaded,
      });
    }
    if (this.#layers.length > 0) replay(view, this.#layers, queryKey, this.#deps.defaultShard);
    const changed: LiveEntry[] = [];
    for (const entry of this.#entries.values()) {
      const shown = view.get(entry.key)!;
      const previous = entry.snapshot;
      let next: QueryState<unknown>;
      if (entry.server.status === "error") {
        next =
          previous.error === entry.server.error
            ? previous
            : { status: "error", value: undefined, error: entry.server.error };
      } else if (!shown.loaded) next = LOADING;
      else {
        next =
          previous.status === "success" && previous.value === shown.value
            ? previous
            : { status: "success", value: shown.value, error: undefined };
      }
      if (next !== previous) {
        entry.snapshot = next;
        changed.push(entry);
      }
    }
    for (const entry of changed) for (const listener of [...entry.listeners]) listener();
  }

  #onState(shardKey: string, state: ConnectionState, attempt: number): void {
    if (state === "closed") {
      this.#states.delete(shardKey);
      this.#synced.delete(shardKey);
      // Nothing live on that shard any more: no push will ever include its mutations.
      this.#drop((layer) => layer.shardKey === shardKey && layer.answeredAt !== undefined);
    } else this.#states.set(shardKey, { state, attempt });
    const states = [...this.#states.values()];
    const has = (wanted: ConnectionState) => states.some((entry) => entry.state === wanted);
    const next: ConnectionStatus =
      states.length === 0
        ? CLOSED
        : {
            state: has("reconnecting") ? "reconnecting" : has("connecting") ? "connecting" : "open",
            sockets: states.length,
            attempt: Math.max(0, ...states.map((entry) => entry.attempt)),
          };
    if (
      next.state === this.#connection.state &&
      next.sockets === this.#connection.sockets &&
      next.attempt === this.#connection.attempt
    )
      return;
    this.#connection = next;
    for (const listener of [...this.#connectionListeners]) listener();
  }
}
