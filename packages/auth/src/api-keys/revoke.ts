import type { AuditScope } from "../admin/audit/trail.ts";
import type { AdminApiKey } from "../admin/contract/index.ts";
import { forgetApiKey } from "./identity.ts";
import { type ApiKeyDatabase, findApiKey, revokeApiKeyStatement } from "./store.ts";

/**
 * Revokes a key already found and allowed: marks it revoked in one D1 batch
 * with its audit record, forgets it in this isolate's key cache (so it
 * answers `401` from the next call here, within the cache's TTL elsewhere),
 * and answers the key as stored now, `revokedAt` set. The admin API and the
 * self-service endpoint both revoke through here; each checks first who may.
 *
 * @example
 * ```ts
 * const found = await findApiKey(database, id);
 * if (found !== null) return { apiKey: await revokeFoundApiKey(database, found, audit, options) };
 * ```
 */
export async function revokeFoundApiKey(
  database: ApiKeyDatabase,
  found: AdminApiKey,
  audit: AuditScope,
  authOptions: object,
): Promise<AdminApiKey> {
  audit.target = { targetType: "api-key", targetId: found.id, userId: found.ownerUserId };
  audit.detail = found.prefix;
  await database.db.batch([
    revokeApiKeyStatement(database, found.id, new Date()),
    audit.okStatement(),
  ]);
  forgetApiKey(authOptions, found.id);
  return (await findApiKey(database, found.id)) ?? found;
}
