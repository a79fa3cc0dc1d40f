import { SvcError } from "../errors/svc-error.ts";
import type { ProcedureKind } from "./call-meta.ts";

/**
 * An API key calling, as its resolver (`@svc/auth`'s `apiKeyIdentity`) saw
 * it: never the secret, only what policies and hooks may decide from. It
 * travels on the identity as the reserved claim `apiKey` and reaches
 * procedures as `ctx.auth.apiKey`.
 *
 * @example
 * ```ts
 * if (ctx.auth.apiKey?.ownerOrganizationId === org) ...
 * ```
 */
export interface ApiKeyCaller {
  /** The key's id (its record, not its secret). */
  readonly id: string;
  readonly name: string;
  /** The visible start of the key (`svc_k7Qx3mPa`), shown in lists so people can tell keys apart. */
  readonly prefix: string;
  /** The user who owns the key, or `null` for an organization's key. */
  readonly ownerUserId: string | null;
  /** The organization that owns the key, or `null` for a user's key. */
  readonly ownerOrganizationId: string | null;
  /** What the key may call; see {@link apiKeyScopeAllows}. */
  readonly scopes: readonly string[];
}

/** What a scope decides about: a procedure (`messages:send`) or, for `path: null`, anything else the door reaches (an HTTP action). */
export interface ScopeTarget {
  path: string | null;
  kind: ProcedureKind;
}

const NAMESPACE = "[A-Za-z0-9_-]+(?:/[A-Za-z0-9_-]+)*";
const FUNCTION = "[A-Za-z_$][\\w$]*";
/** Suffix of a scope that grants queries and streams only. */
export const READ_ONLY_SUFFIX = ".readonly";
const SCOPE = new RegExp(`^(?:\\*|${NAMESPACE}(?::${FUNCTION})?)(?:\\.readonly)?$`);

/**
 * True for a well-formed API key scope: `*` (every public procedure),
 * a namespace (`messages`, which also covers `messages/archive:list`), or a
 * procedure path (`messages:send`), each optionally ending in `.readonly`
 * (queries and streams only).
 *
 * @example isApiKeyScope("messages.readonly") // true
 */
export function isApiKeyScope(scope: string): boolean {
  return scope.length <= 200 && SCOPE.test(scope);
}

function covers(pattern: string, path: string | null): boolean {
  if (pattern === "*") return true;
  if (path === null) return false;
  if (pattern.includes(":")) return pattern === path;
  const namespace = path.slice(0, path.lastIndexOf(":"));
  return namespace === pattern || namespace.startsWith(`${pattern}/`);
}

/**
 * Whether an API key with these scopes may call `target`. A read-only scope
 * (`….readonly`) allows queries and streams; any other allows every kind.
 * A target that is no procedure (an HTTP action) is covered by `*` alone.
 *
 * @example apiKeyScopeAllows(["messages.readonly"], { path: "messages:list", kind: "query" }) // true
 */
export function apiKeyScopeAllows(scopes: readonly string[], target: ScopeTarget): boolean {
  const reads = target.kind === "query" || target.kind === "stream";
  return scopes.some((scope) => {
    const readOnly = scope.endsWith(READ_ONLY_SUFFIX);
    if (readOnly && !reads) return false;
    return covers(readOnly ? scope.slice(0, -READ_ONLY_SUFFIX.length) : scope, target.path);
  });
}

/**
 * Refuses (`FORBIDDEN`) a call an API key's scopes do not cover; a caller
 * with no key passes. Doors check it at admission, a shard for each
 * subscription a key's socket asks for.
 *
 * @example refuseOutOfScope(identity?.apiKey, { path: "messages:send", kind: "mutation" });
 */
export function refuseOutOfScope(apiKey: ApiKeyCaller | undefined, target: ScopeTarget): void {
  if (apiKey === undefined || apiKeyScopeAllows(apiKey.scopes, target)) return;
  const what = target.path ?? "HTTP actions (they need the scope *)";
  throw new SvcError("FORBIDDEN", `This API key's scopes do not cover ${what}.`);
}
