import { fromJsonValue, stringifyJson } from "@svc/server/json";
import { errorFromProblem, SvcClientError } from "./client-error.ts";
import { type ConnectionStatus, LiveStore, type QueryWatch } from "./live-store.ts";
import { readLines } from "./ndjson.ts";
import type { OptimisticUpdate } from "./optimistic.ts";
import { PaginatedQuery, type PaginatedWatch } from "./paginated.ts";
import type { ArgsOf, OutputOf, PublicRef } from "./references.ts";
import { type SocketOptions, SubscriptionSockets } from "./subscriptions.ts";
import { type UploadFileOptions, uploadFile } from "./upload.ts";

/** How the client reaches an svc worker. */
export interface ClientOptions {
  /** The worker's origin, e.g. `https://app.example.com`. */
  url: string | URL;
  /** Shard for every call (a call may override it). Default: the server's default shard. */
  shardKey?: string;
  /** A session token sent as `Authorization: Bearer` (needs better-auth's `bearer` plugin). A function is read per call. */
  bearer?: string | (() => string | null | undefined);
  /** A `Cookie` header to send (server-side callers). Browsers send cookies themselves. */
  cookie?: string;
  /** Extra headers for every call. */
  headers?: Record<string, string>;
  /** `fetch` to use (default: global `fetch`). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Browser credentials mode; set `"include"` to send cookies cross-origin. Not set by default (workerd refuses it). */
  credentials?: "include" | "omit" | "same-origin";
  /** Told when a shard's subscription socket connects, opens, reconnects (with the attempt) or closes. */
  onConnectionStateChange?: SocketOptions["onConnectionStateChange"];
  /** The WebSocket class for subscriptions. Default: the global one (browsers, Node ≥ 22). */
  WebSocket?: typeof WebSocket;
  /**
   * How long a live query nobody watches any more keeps its subscription and
   * value, so a component that mounts again shows it at once. @default 5000
   */
  keepAliveMs?: number;
}

/** Options of {@link SvcClient.subscribe}. */
export interface SubscribeOptions {
  /** The shard to watch. Default: the client's `shardKey`, else the server's default. */
  shardKey?: string;
  /** Called once if the subscription ends with an error (refused, failing query); no values follow. */
  onError?: (error: SvcClientError) => void;
}

/** Per-call options. */
export interface CallOptions {
  shardKey?: string;
  signal?: AbortSignal;
}

/** Options of {@link SvcClient.mutation}. */
export interface MutationOptions<Args> extends CallOptions {
  /** Shows the mutation's predicted effect on live queries until the server's values include it. */
  optimisticUpdate?: OptimisticUpdate<Args>;
}

/** Options of {@link SvcClient.watchPaginatedQuery}. */
export interface PaginatedQueryOptions {
  /** Rows in the first page. */
  initialNumItems: number;
  shardKey?: string;
}

type ArgsParam<Ref, Options = CallOptions> =
  Record<string, never> extends ArgsOf<Ref>
    ? [args?: ArgsOf<Ref>, options?: Options]
    : [args: ArgsOf<Ref>, options?: Options];

/** A query's arguments without `paginationOpts`, which the pagination supplies. */
export type PaginatedArgs<Ref> = Omit<ArgsOf<Ref>, "paginationOpts">;
/** One row of a paginated query's pages. */
export type PaginatedItem<Ref> = OutputOf<Ref> extends { page: (infer Item)[] } ? Item : never;

function randomClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");
}

/**
 * A typed client over svc's RPC transport. References come from the app's
 * generated `svc/_generated/api.ts`, so arguments and results are checked.
 *
 * @example
 * ```ts
 * const client = createClient({ url: "http://127.0.0.1:8787", bearer: token });
 * const messages = await client.query(api.messages.list, {});
 * for await (const tick of client.stream(api.messages.ticks, { count: 3 })) console.log(tick);
 * ```
 */
export class SvcClient {
  readonly #options: ClientOptions;
  #sockets: SubscriptionSockets | undefined;
  #live: LiveStore | undefined;

  constructor(options: ClientOptions) {
    this.#options = options;
  }

  #socketsOf(): SubscriptionSockets {
    this.#sockets ??= new SubscriptionSockets(this.#options, randomClientId());
    return this.#sockets;
  }

  #store(): LiveStore {
    this.#live ??= new LiveStore({
      sockets: this.#socketsOf(),
      defaultShard: this.#options.shardKey ?? "default",
      keepAliveMs: this.#options.keepAliveMs ?? 5000,
      mutate: (path, args, shardKey, mutationId) =>
        this.#call({ path }, args, { shardKey }, mutationId),
    });
    return this.#live;
  }

  /**
   * A live query shared with every other watcher of the same (query,
   * arguments, shard): one server subscription however many watch it, kept
   * `keepAliveMs` after the last leaves. `@svc/react`'s `useQuery` is this
   * with `useSyncExternalStore`.
   *
   * @example
   * ```ts
   * const notes = client.watchQuery(api.notes.list, {});
   * const stop = notes.subscribe(() => console.log(notes.getSnapshot()));
   * ```
   */
  watchQuery<Ref extends PublicRef<"query">>(
    ref: Ref,
    args: ArgsOf<Ref>,
    options: { shardKey?: string } = {},
  ): QueryWatch<OutputOf<Ref>> {
    return this.#store().watch(ref.path, args, options.shardKey);
  }

  /**
   * A paginated live query: pages of `paginationOpts` that all stay live
   * (see {@link PaginatedQuery}). The query takes
   * `paginationOpts: paginationOptsValidator` and passes it to `.paginate()`.
   *
   * @example
   * ```ts
   * const notes = client.watchPaginatedQuery(api.notes.page, {}, { initialNumItems: 20 });
   * ```
   */
  watchPaginatedQuery<Ref extends PublicRef<"query">>(
    ref: Ref,
    args: PaginatedArgs<Ref>,
    options: PaginatedQueryOptions,
  ): PaginatedWatch<PaginatedItem<Ref>> {
    return new PaginatedQuery(this.#store(), ref.path, args as Record<string, unknown>, options);
  }

  /**
   * Re-runs every live query under the current credentials (call it after
   * sign-in or sign-out; `@svc/react`'s auth bridge does): values seen under
   * the old ones are cleared at once and the sockets reconnect.
   */
  reauthenticate(): void {
    this.#live?.reauthenticate();
    if (this.#live === undefined) this.#sockets?.reconnectAll();
  }

  /** The live connection's state, for `useSyncExternalStore` (`useConnectionState`). */
  get connection(): {
    getSnapshot(): ConnectionStatus;
    subscribe(listener: () => void): () => void;
  } {
    return this.#store().connection;
  }

  /**
   * Watches a public query: `onValue` gets its result as soon as it ran, then
   * again whenever a commit in the shard changes it (never twice the same
   * value). Subscriptions of one shard share one WebSocket, which reconnects
   * with backoff and resubscribes by itself. Returns the function that stops it.
   *
   * @example
   * ```ts
   * const stop = client.subscribe(api.messages.list, { channel: "general" }, (messages) => render(messages), {
   *   onError: (error) => console.error(error.code),
   * });
   * ```
   */
  subscribe<Ref extends PublicRef<"query">>(
    ref: Ref,
    args: ArgsOf<Ref>,
    onValue: (value: OutputOf<Ref>) => void,
    options: SubscribeOptions = {},
  ): () => void {
    const shardKey = options.shardKey ?? this.#options.shardKey ?? "default";
    return this.#socketsOf().add(shardKey, ref.path, args, {
      onValue: onValue as (value: unknown) => void,
      onError: options.onError,
    });
  }

  /** A client identical to this one but calling shard `shardKey`. */
  withShard(shardKey: string): SvcClient {
    return new SvcClient({ ...this.#options, shardKey });
  }

  query<Ref extends PublicRef<"query">>(ref: Ref, ...rest: ArgsParam<Ref>): Promise<OutputOf<Ref>> {
    return this.#call(ref, rest[0], rest[1]) as Promise<OutputOf<Ref>>;
  }

  /**
   * Runs a mutation. With `optimisticUpdate`, live queries show its predicted
   * effect at once; the effect is rebased on each server value until the
   * server's values include the mutation, and rolled back if it fails.
   *
   * @example
   * ```ts
   * await client.mutation(api.notes.add, { text }, {
   *   optimisticUpdate: (store, args) => {
   *     const notes = store.getQuery(api.notes.list, {});
   *     if (notes) store.setQuery(api.notes.list, {}, [{ _id: "temp", text: args.text }, ...notes]);
   *   },
   * });
   * ```
   */
  mutation<Ref extends PublicRef<"mutation">>(
    ref: Ref,
    ...rest: ArgsParam<Ref, MutationOptions<ArgsOf<Ref>>>
  ): Promise<OutputOf<Ref>> {
    const [args, options] = rest;
    if (options?.optimisticUpdate === undefined)
      return this.#call(ref, args, options) as Promise<OutputOf<Ref>>;
    const shardKey = options.shardKey ?? this.#options.shardKey ?? "default";
    return this.#store().mutate(
      ref.path,
      args ?? {},
      shardKey,
      options.optimisticUpdate as OptimisticUpdate<unknown>,
    ) as Promise<OutputOf<Ref>>;
  }

  action<Ref extends PublicRef<"action">>(
    ref: Ref,
    ...rest: ArgsParam<Ref>
  ): Promise<OutputOf<Ref>> {
    return this.#call(ref, rest[0], rest[1]) as Promise<OutputOf<Ref>>;
  }

  /** Iterates a stream procedure's items in order; breaking out of the loop cancels it. */
  async *stream<Ref extends PublicRef<"stream">>(
    ref: Ref,
    ...rest: ArgsParam<Ref>
  ): AsyncGenerator<OutputOf<Ref>> {
    const response = await this.#send(ref, rest[0], rest[1]);
    if (response.body === null)
      throw new SvcClientError("PROTOCOL_ERROR", "The stream response has no body.");
    for await (const line of readLines(response.body)) {
      let message: { value?: unknown; done?: boolean; error?: unknown };
      try {
        message = JSON.parse(line);
      } catch (cause) {
        throw new SvcClientError("PROTOCOL_ERROR", "The stream sent a line that is not JSON.", {
          cause,
        });
      }
      if (message.done === true) return;
      if (message.error !== undefined) {
        const status = (message.error as { status?: number }).status ?? 500;
        throw errorFromProblem(status, message.error);
      }
      yield fromJsonValue(message.value) as OutputOf<Ref>;
    }
    throw new SvcClientError("PROTOCOL_ERROR", "The stream ended before the server finished it.");
  }

  /**
   * Uploads a file to an upload URL a mutation issued
   * (`ctx.storage.generateUploadUrl`), resolved against the client's `url`;
   * answers the file's storage id. See {@link uploadFile}.
   *
   * @example
   * ```ts
   * const storageId = await client.uploadFile(await client.mutation(api.files.uploadUrl), file, {
   *   onProgress: ({ loaded, total }) => console.log(loaded / total),
   * });
   * ```
   */
  uploadFile(
    uploadUrl: string,
    file: Blob,
    options: UploadFileOptions = {},
  ): ReturnType<typeof uploadFile> {
    const { fetch: send } = this.#options;
    return uploadFile(uploadUrl, file, {
      baseUrl: this.#options.url,
      ...(send === undefined ? {} : { fetch: send }),
      ...options,
    });
  }

  async #call(
    ref: { path: string },
    args: unknown,
    options: CallOptions | undefined,
    mutationId?: string,
  ): Promise<unknown> {
    const response = await this.#send(ref, args, options, mutationId);
    let body: unknown;
    try {
      body = await response.json();
    } catch (cause) {
      throw new SvcClientError(
        "PROTOCOL_ERROR",
        "The server answered with a body that is not JSON.",
        { status: response.status, cause },
      );
    }
    if (typeof body !== "object" || body === null || !("value" in body)) {
      throw new SvcClientError("PROTOCOL_ERROR", "The server answered without a value.", {
        status: response.status,
      });
    }
    return fromJsonValue((body as { value: unknown }).value);
  }

  async #send(
    ref: { path: string },
    args: unknown,
    options: CallOptions | undefined,
    mutationId?: string,
  ): Promise<Response> {
    const base = this.#options;
    const url = new URL("/_svc/rpc", base.url);
    const shardKey = options?.shardKey ?? base.shardKey;
    if (shardKey !== undefined) url.searchParams.set("shardKey", shardKey);
    const headers: Record<string, string> = { ...base.headers, "content-type": "application/json" };
    const bearer = typeof base.bearer === "function" ? base.bearer() : base.bearer;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (base.cookie) headers.cookie = base.cookie;
    if (mutationId !== undefined) headers["x-svc-mutation-id"] = mutationId;
    const send = base.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
    let response: Response;
    try {
      const init: RequestInit & { credentials?: string } = {
        method: "POST",
        headers,
        body: stringifyJson({ path: ref.path, args: args ?? {} }),
      };
      if (base.credentials) init.credentials = base.credentials;
      if (options?.signal) init.signal = options.signal;
      response = await send(url.toString(), init);
    } catch (cause) {
      throw new SvcClientError("NETWORK_ERROR", `Could not reach ${url.origin}.`, { cause });
    }
    if (!response.ok) {
      const body = await response.json().catch(() => undefined);
      throw errorFromProblem(response.status, body);
    }
    return response;
  }
}

/** Creates an {@link SvcClient}. */
export function createClient(options: ClientOptions): SvcClient {
  return new SvcClient(options);
}
