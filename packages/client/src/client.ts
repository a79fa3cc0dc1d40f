import type { FunctionReference } from "@svc/server";
import { fromJsonValue, stringifyJson } from "@svc/server/json";
import { errorFromProblem, SvcClientError } from "./client-error.ts";
import { readLines } from "./ndjson.ts";
import { type SocketOptions, SubscriptionSockets } from "./subscriptions.ts";

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

type ArgsOf<Ref> =
  Ref extends FunctionReference<infer _K, infer _V, infer Args, infer _O> ? Args : never;
type OutputOf<Ref> =
  Ref extends FunctionReference<infer _K, infer _V, infer _A, infer Output> ? Output : never;
type PublicRef<Kind extends "query" | "mutation" | "action" | "stream"> = {
  readonly path: string;
  readonly kind: Kind;
  readonly visibility: "public";
};
type ArgsParam<Ref> =
  Record<string, never> extends ArgsOf<Ref>
    ? [args?: ArgsOf<Ref>, options?: CallOptions]
    : [args: ArgsOf<Ref>, options?: CallOptions];

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

  constructor(options: ClientOptions) {
    this.#options = options;
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
    this.#sockets ??= new SubscriptionSockets(this.#options);
    const shardKey = options.shardKey ?? this.#options.shardKey ?? "default";
    return this.#sockets.add(
      shardKey,
      ref.path,
      args,
      onValue as (value: unknown) => void,
      options.onError,
    );
  }

  /** A client identical to this one but calling shard `shardKey`. */
  withShard(shardKey: string): SvcClient {
    return new SvcClient({ ...this.#options, shardKey });
  }

  query<Ref extends PublicRef<"query">>(ref: Ref, ...rest: ArgsParam<Ref>): Promise<OutputOf<Ref>> {
    return this.#call(ref, rest[0], rest[1]) as Promise<OutputOf<Ref>>;
  }

  mutation<Ref extends PublicRef<"mutation">>(
    ref: Ref,
    ...rest: ArgsParam<Ref>
  ): Promise<OutputOf<Ref>> {
    return this.#call(ref, rest[0], rest[1]) as Promise<OutputOf<Ref>>;
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

  async #call(
    ref: { path: string },
    args: unknown,
    options: CallOptions | undefined,
  ): Promise<unknown> {
    const response = await this.#send(ref, args, options);
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
  ): Promise<Response> {
    const base = this.#options;
    const url = new URL("/_svc/rpc", base.url);
    const shardKey = options?.shardKey ?? base.shardKey;
    if (shardKey !== undefined) url.searchParams.set("shardKey", shardKey);
    const headers: Record<string, string> = { ...base.headers, "content-type": "application/json" };
    const bearer = typeof base.bearer === "function" ? base.bearer() : base.bearer;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (base.cookie) headers.cookie = base.cookie;
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
