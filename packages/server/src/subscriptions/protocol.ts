import type { ProblemDetails } from "../errors/problem.ts";
import type { ResolvedSocketLimits } from "../limits/socket-limits.ts";
import type { Identity } from "../model/identity.ts";
import type { RecordingPlan } from "../observability/plan.ts";

/**
 * svc's subscription protocol, version 1: JSON text frames over a WebSocket
 * opened at `GET /_svc/ws` with the subprotocol `svc.v1`.
 *
 * Client → server: `subscribe` (a public query, its arguments, an id the
 * client chooses) and `unsubscribe`. Server → client: `value` (the query's
 * current result: the first right after it ran, then one per change) and
 * `error` (problem details; with an `id` the subscription has ended, without
 * one a frame was refused and the socket stays open).
 *
 * @see ../../../../docs/subscriptions.md
 */
export const SUBSCRIPTION_PROTOCOL = "svc.v1";

/** A browser cannot set `Authorization` on a WebSocket: it offers `svc.bearer.<base64url token>`. */
export const BEARER_PROTOCOL_PREFIX = "svc.bearer.";

/** Path of the WebSocket endpoint. */
export const SUBSCRIPTION_PATH = "/_svc/ws";

/** Frames a client sends. */
export type ClientFrame =
  | { type: "subscribe"; id: string; path: string; args?: unknown }
  | { type: "unsubscribe"; id: string };

/**
 * Frames the server sends. A `value` lists in `includes` the socket's own
 * client's mutations it reflects that are not yet `applied`; `applied` says
 * every subscription of the socket now reflects that mutation (its pushes,
 * if any, came first). Optimistic updates rest on both (see
 * {@link MUTATION_HEADER}).
 */
export type ServerFrame =
  | { type: "value"; id: string; value: unknown; includes?: string[] }
  | { type: "applied"; mutation: string }
  | { type: "error"; id?: string; error: ProblemDetails };

/**
 * The query parameter of `/_svc/ws` naming the client instance (a random id
 * the client makes, 16–64 characters of `[A-Za-z0-9_-]`). It is no
 * credential: it only routes acknowledgements of that client's mutations.
 */
export const CLIENT_ID_PARAM = "clientId";

/**
 * The request header a client puts on an RPC mutation to have it
 * acknowledged on its subscription sockets: `<clientId>:<sequence>`.
 */
export const MUTATION_HEADER = "x-svc-mutation-id";

const CLIENT_ID = /^[A-Za-z0-9_-]{16,64}$/;
const MUTATION_ID = /^([A-Za-z0-9_-]{16,64}):\d{1,15}$/;

/** Whether `value` can name a client instance. @example isClientId("k3Jx9…") */
export function isClientId(value: string): boolean {
  return CLIENT_ID.test(value);
}

/**
 * The client id of a well-formed mutation id, else `undefined`.
 *
 * @example clientOfMutation("k3Jx9aaaaaaaaaaaaaaa:7") // "k3Jx9aaaaaaaaaaaaaaa"
 */
export function clientOfMutation(mutationId: string): string | undefined {
  return MUTATION_ID.exec(mutationId)?.[1];
}

/** Close codes of the subscription socket. */
export const CLOSE = {
  /** The socket's authority expired: reconnect (the identity is resolved again). */
  REAUTHENTICATE: 4001,
  /** The client sent frames faster than its budget allows (HTTP's 429, in the private range): back off. */
  TOO_MANY_FRAMES: 4029,
  /** A frame over the size limit (RFC 6455's "message too big"). */
  TOO_BIG: 1009,
} as const;

/**
 * What the worker tells the shard about an accepted socket, in a header the
 * worker always overwrites (a client's own header of that name is removed):
 * the identity it resolved, when that resolution stops counting, and the
 * upgrade request's credential headers for `ctx.authApi`, the caller's
 * address and the socket bounds the worker was configured with.
 */
export interface SocketGrant {
  identity: Identity | null;
  authorizedUntil: number;
  headers: Record<string, string>;
  /** How the worker records calls; the shard records the socket's query runs the same way. */
  recording?: RecordingPlan | null;
  /** The caller's address (`cf-connecting-ip`, or `anonymous`), which the shard counts sockets by. */
  address?: string;
  /** The bounds the worker allows this socket (`createWorker({ socketLimits })`). */
  limits?: ResolvedSocketLimits;
  /** The worker's socket authority (`registerSocketAuthority`), which re-checks the credential. */
  authority?: number;
}

/**
 * The internal header carrying a {@link SocketGrant} from the worker to the
 * shard, as base64url of its UTF-8 JSON (`encodeOpaqueJson`): a raw JSON
 * value with a non-ASCII name or cookie made workerd print the whole header,
 * session token included, to the console.
 */
export const GRANT_HEADER = "x-svc-internal-socket-grant";
