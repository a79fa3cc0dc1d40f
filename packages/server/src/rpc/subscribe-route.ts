import { SvcError } from "../errors/svc-error.ts";
import { clientAddress } from "../limits/rate-limit-gate.ts";
import { noteCall } from "../observability/call-scope.ts";
import {
  BEARER_PROTOCOL_PREFIX,
  CLIENT_ID_PARAM,
  GRANT_HEADER,
  isClientId,
  type SocketGrant,
  SUBSCRIPTION_PATH,
  SUBSCRIPTION_PROTOCOL,
} from "../subscriptions/protocol.ts";
import { encodeOpaqueJson } from "../values/opaque-json.ts";
import { throughDoor } from "../worker/admission.ts";
import type { WorkerRuntime } from "../worker/runtime.ts";

const INTERNAL_HEADER_PREFIX = "x-svc-internal-";

function offeredProtocols(request: Request): string[] {
  return (request.headers.get("sec-websocket-protocol") ?? "")
    .split(",")
    .map((protocol) => protocol.trim())
    .filter(Boolean);
}

/** What a bearer token may hold: visible ASCII, as any header value carrying it must. */
const TOKEN_CHARACTERS = /^[\x21-\x7e]+$/;

/**
 * `svc.bearer.<base64url>` → the token, or `undefined` when none is offered.
 * A value that does not decode to a token (a raw `svc_…` key, bytes that
 * are no valid header value, not base64url at all) is `401`: a credential
 * was offered and did not hold, so the socket never opens anonymous.
 */
function bearerFromProtocols(protocols: readonly string[]): string | undefined {
  const offered = protocols.find((protocol) => protocol.startsWith(BEARER_PROTOCOL_PREFIX));
  if (offered === undefined) return undefined;
  const encoded = offered.slice(BEARER_PROTOCOL_PREFIX.length);
  let token: string | undefined;
  try {
    token = atob(encoded.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    token = undefined;
  }
  if (encoded.startsWith("svc_") || token === undefined || !TOKEN_CHARACTERS.test(token)) {
    throw new SvcError(
      "UNAUTHENTICATED",
      "The svc.bearer subprotocol carries no base64url-encoded token.",
      { headers: { "www-authenticate": "Bearer" } },
    );
  }
  return token;
}

/**
 * `GET /_svc/ws` (WebSocket upgrade, subprotocol `svc.v1`): a thin adapter
 * over svc's one admission step (`admission.ts`). The caller is resolved
 * from the upgrade request (cookie, `Authorization`, or the
 * `svc.bearer.<token>` subprotocol browsers can send); admission applies
 * the CSRF rule, the shard key, the store-backed socket limits when
 * configured (per address before the identity is resolved, per user after)
 * and `shardAccess` (path `*`). The socket then goes to the shard with the
 * identity, the caller's address and the socket bounds in a header the
 * worker writes itself: any client header named `x-svc-internal-*` is
 * removed first, so a client cannot forge it. The shard enforces the bounds
 * (sockets per address and user, frame rate).
 */
export async function handleSubscribe<Env>(
  request: Request,
  env: Env,
  url: URL,
  runtime: WorkerRuntime<Env>,
): Promise<Response> {
  noteCall(request, { entry: "ws", route: SUBSCRIPTION_PATH });
  if (request.method !== "GET") {
    throw new SvcError("METHOD_NOT_ALLOWED", "Subscriptions open with GET.", {
      headers: { allow: "GET" },
    });
  }
  if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    throw new SvcError(
      "BAD_REQUEST",
      "Subscriptions need a WebSocket upgrade (Upgrade: websocket).",
    );
  }
  const protocols = offeredProtocols(request);
  if (!protocols.includes(SUBSCRIPTION_PROTOCOL)) {
    throw new SvcError("BAD_REQUEST", `Offer the WebSocket subprotocol ${SUBSCRIPTION_PROTOCOL}.`);
  }
  const headers = new Headers(request.headers);
  for (const name of [...headers.keys()]) {
    if (name.startsWith(INTERNAL_HEADER_PREFIX)) headers.delete(name);
  }
  const bearer = bearerFromProtocols(protocols);
  if (bearer !== undefined && !headers.has("authorization")) {
    headers.set("authorization", `Bearer ${bearer}`);
  }
  const clientId = url.searchParams.get(CLIENT_ID_PARAM);
  if (clientId !== null && !isClientId(clientId)) {
    throw new SvcError("BAD_REQUEST", "clientId is 16 to 64 characters of A-Z, a-z, 0-9, _ and -.");
  }
  const door = {
    transport: "ws",
    request,
    url,
    env,
    target: "*",
    resolved: SUBSCRIPTION_PATH,
    credentials: new Request(request.url, { headers }),
    notFound: () => new SvcError("NOT_FOUND", "No such procedure."),
  } as const;
  return throughDoor(door, runtime, async ({ identity, shardKey }) => {
    // The shard keeps a socket's grant in its storage while the socket lives (hibernation): an API
    // key, which `ctx.authApi` has no use for (better-auth's endpoints want a session), stays out.
    const credentials: Record<string, string> = {};
    for (const name of identity?.apiKey === undefined ? ["cookie", "authorization"] : []) {
      const value = headers.get(name);
      if (value !== null) credentials[name] = value;
    }
    const grant: SocketGrant = {
      identity,
      authorizedUntil: Date.now() + runtime.subscriptionReauthSeconds * 1000,
      headers: credentials,
      recording: runtime.recording,
      address: clientAddress(request, runtime.socketLimits.ipv6Prefix),
      limits: runtime.socketLimits,
      authority: runtime.socketAuthority,
    };
    // base64url of UTF-8 JSON: always a valid header value, so workerd never warns about
    // (and prints) a grant whose identity or cookie holds a non-ASCII character.
    headers.set(GRANT_HEADER, encodeOpaqueJson(grant));
    headers.set("sec-websocket-protocol", SUBSCRIPTION_PROTOCOL);
    const target = new URL(SUBSCRIPTION_PATH, url);
    target.searchParams.set("shardKey", shardKey);
    if (clientId !== null) target.searchParams.set(CLIENT_ID_PARAM, clientId);
    return runtime.shard(env, shardKey).fetch(new Request(target, { headers }));
  });
}
