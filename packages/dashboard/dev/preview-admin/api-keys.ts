/**
 * DEV PREVIEW ONLY: the fake admin API's API keys, in memory. A created key
 * is random text of the real shape; nothing here checks one.
 */
import { SvcError } from "@svc/server";
import type { ApiKey } from "../../ui/api/types.ts";
import { type PreviewContext, record } from "./users.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** The keys of one owner (or all), newest first. */
export function listApiKeys(
  ctx: PreviewContext,
  query: { ownerUserId?: string; ownerOrganizationId?: string },
): { apiKeys: ApiKey[] } {
  const apiKeys = ctx.data.apiKeys.filter(
    (key) =>
      (query.ownerUserId === undefined || key.ownerUserId === query.ownerUserId) &&
      (query.ownerOrganizationId === undefined ||
        key.ownerOrganizationId === query.ownerOrganizationId),
  );
  return { apiKeys };
}

/** A new key for a user or an organization; the answer holds the key, as the real one does. */
export function createApiKey(
  ctx: PreviewContext,
  body: { name: string; scopes: string[]; expiresInSeconds?: number } & (
    | { ownerUserId: string }
    | { ownerOrganizationId: string }
  ),
): { apiKey: ApiKey; key: string } {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(48)), (byte) =>
    ALPHABET.charAt(byte % ALPHABET.length),
  ).join("");
  const key = `svc_${random}`;
  const now = Date.now();
  const apiKey: ApiKey = {
    id: `key_${crypto.randomUUID().slice(0, 8)}`,
    name: body.name,
    prefix: key.slice(0, 12),
    ownerUserId: "ownerUserId" in body ? body.ownerUserId : null,
    ownerOrganizationId: "ownerOrganizationId" in body ? body.ownerOrganizationId : null,
    scopes: body.scopes,
    createdAt: new Date(now).toISOString(),
    createdBy: `operator:${ctx.operator}`,
    expiresAt:
      body.expiresInSeconds === undefined
        ? null
        : new Date(now + body.expiresInSeconds * 1000).toISOString(),
    lastUsedAt: null,
    revokedAt: null,
  };
  ctx.data.apiKeys.unshift(apiKey);
  record(ctx, "api-key.create", "api-key", apiKey.id);
  return { apiKey, key };
}

/** Marks a key revoked. */
export function revokeApiKey(ctx: PreviewContext, id: string): { apiKey: ApiKey } {
  const apiKey = ctx.data.apiKeys.find((key) => key.id === id);
  if (apiKey === undefined) throw new SvcError("NOT_FOUND", "No API key with this id.");
  apiKey.revokedAt ??= new Date().toISOString();
  record(ctx, "api-key.revoke", "api-key", id);
  return { apiKey };
}
