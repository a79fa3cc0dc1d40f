/**
 * DEV PREVIEW ONLY: the fake admin API's API keys, in memory. A created key
 * is random text of the real shape; nothing here checks one. The audit
 * trail's entries come from the route declarations, as the real ones do.
 */
import { SvcError } from "@svc/server";
import type { ApiKey } from "../../ui/api/types.ts";
import type { PreviewHandlers } from "./users.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function randomKey(): string {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(48)), (byte) =>
    ALPHABET.charAt(byte % ALPHABET.length),
  ).join("");
  return `svc_${random}`;
}

/** The API key routes of the preview: list by owner, create (the key answered once), revoke. */
export const apiKeyHandlers = {
  listApiKeys: async ({ ctx, query }) => ({
    apiKeys: ctx.data.apiKeys.filter(
      (key) =>
        (query.ownerUserId === undefined || key.ownerUserId === query.ownerUserId) &&
        (query.ownerOrganizationId === undefined ||
          key.ownerOrganizationId === query.ownerOrganizationId),
    ),
  }),
  createApiKey: async ({ ctx, body, audit }) => {
    const key = randomKey();
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
    audit.targetId = apiKey.id;
    audit.userId = apiKey.ownerUserId;
    return { apiKey, key };
  },
  revokeApiKey: async ({ ctx, params }) => {
    const apiKey = ctx.data.apiKeys.find((key) => key.id === params.id);
    if (apiKey === undefined) throw new SvcError("NOT_FOUND", "No API key with this id.");
    apiKey.revokedAt ??= new Date().toISOString();
    return { apiKey };
  },
} satisfies Partial<PreviewHandlers>;
