import { SvcError, validationFailed } from "@svc/server";
import { assertOwnerExists, mintApiKey } from "../api-keys/mint.ts";
import { revokeFoundApiKey } from "../api-keys/revoke.ts";
import { API_KEY_MODEL } from "../api-keys/schema.ts";
import { type ApiKeyOwner, findApiKey, listApiKeys as listKeys } from "../api-keys/store.ts";
import type { AdminAnswer, AdminCall } from "./handler.ts";

/**
 * `GET api-keys`: one owner's keys (`ownerUserId` or `ownerOrganizationId`),
 * or every key, newest first; revoked keys are listed with `revokedAt`.
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/api-keys?ownerUserId=u1 → { apiKeys: [{ id, name, prefix, scopes, … }] }
 * ```
 */
export async function listApiKeys(
  call: AdminCall<"listApiKeys">,
): Promise<AdminAnswer<"listApiKeys">> {
  const { ownerUserId, ownerOrganizationId } = call.query;
  if (ownerUserId !== undefined && ownerOrganizationId !== undefined) {
    throw validationFailed([
      { path: "query.ownerOrganizationId", message: "give one owner: a user or an organization" },
    ]);
  }
  const owner =
    ownerUserId !== undefined
      ? { userId: ownerUserId }
      : ownerOrganizationId !== undefined
        ? { organizationId: ownerOrganizationId }
        : null;
  return { apiKeys: await listKeys(call.ctx.environment, owner) };
}

/**
 * `POST api-keys`: a key for a user or an organization (which must exist).
 * The answer holds the key, the only time it is ever shown; the database
 * holds its SHA-256. Audited with the owner and the scopes.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/api-keys { ownerUserId: "u1", name: "CI", scopes: ["messages"] }
 * → 201 { apiKey: { id, prefix: "svc_k7Qx3mPa", … }, key: "svc_k7Qx3mPa…" }
 * ```
 */
export async function createApiKey(
  call: AdminCall<"createApiKey">,
): Promise<AdminAnswer<"createApiKey">> {
  const { environment, operator } = call.ctx;
  const { body, audit } = call;
  const owner: ApiKeyOwner =
    "ownerUserId" in body
      ? { userId: body.ownerUserId }
      : { organizationId: body.ownerOrganizationId };
  await assertOwnerExists(environment, owner);
  const id = environment.auth.generateId({ model: API_KEY_MODEL }) || crypto.randomUUID();
  const minted = await mintApiKey(environment, id, {
    owner,
    name: body.name,
    scopes: body.scopes,
    expiresInSeconds: body.expiresInSeconds,
    createdBy: `operator:${operator}`,
  });
  const { prefix, ownerUserId, ownerOrganizationId, scopes } = minted.record;
  audit.target = { targetType: "api-key", targetId: id, userId: ownerUserId };
  const ownerName =
    ownerUserId !== null ? `user ${ownerUserId}` : `organization ${ownerOrganizationId}`;
  audit.detail = `${prefix} for ${ownerName}: ${scopes.join(" ")}`;
  await environment.db.batch([minted.statement, audit.okStatement()]);
  return { apiKey: minted.record, key: minted.key };
}

/**
 * `DELETE api-keys/:id`: revokes a key. It answers `401` from the next call
 * in this isolate, within the key cache's TTL (1 s by default) everywhere.
 * The key stays listed, with `revokedAt`.
 *
 * @example
 * ```ts
 * DELETE /_svc/admin/auth/api-keys/k1 → { apiKey: { id: "k1", revokedAt: "…", … } }
 * ```
 */
export async function revokeApiKey(
  call: AdminCall<"revokeApiKey">,
): Promise<AdminAnswer<"revokeApiKey">> {
  const { environment } = call.ctx;
  const { params, audit } = call;
  const found = await findApiKey(environment, params.id);
  if (found === null)
    throw new SvcError("NOT_FOUND", `No API key with id ${JSON.stringify(params.id)}.`);
  return { apiKey: await revokeFoundApiKey(environment, found, audit, environment.auth.options) };
}
