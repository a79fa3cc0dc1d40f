import { isApiKeyScope, SvcError, validationFailed } from "@svc/server";
import type { AdminApiKey } from "../admin/contract/index.ts";
import { generateApiKey } from "./key-material.ts";
import { type ApiKeyDatabase, type ApiKeyOwner, insertApiKey } from "./store.ts";

/** Bounds of a new key, the same for the admin API and self-service. */
export const API_KEY_LIMITS = {
  /** Longest name, in characters. */
  nameLength: 100,
  /** Most scopes on one key. */
  scopes: 50,
  /** Longest life a key may be given: ten years. */
  expiresInSeconds: 10 * 365 * 24 * 60 * 60,
} as const;

/** What creating a key asks for. */
export interface NewApiKey {
  owner: ApiKeyOwner;
  name: string;
  scopes: readonly string[];
  /** Seconds from now until the key stops working; absent: it never expires. */
  expiresInSeconds?: number | undefined;
  /** `operator:<name>` (admin API) or `user:<id>` (self-service). */
  createdBy: string;
  /** Most keys in force the owner may hold; the insert adds nothing once they are reached. */
  maxInForce?: number;
}

/**
 * Checks what a new key asks for (`VALIDATION_FAILED` with a path per
 * issue: the name, each scope, the expiry), then draws the key and
 * answers the statement that stores its hash, the record every answer
 * shows, and the key itself: shown once, in the creation's answer only.
 *
 * @example
 * ```ts
 * const minted = await mintApiKey(database, id, { owner: { userId: "u1" }, name: "CI", scopes: ["messages"], createdBy: "operator:alice" });
 * await db.batch([minted.statement, audit.okStatement()]);
 * return { apiKey: minted.record, key: minted.key };
 * ```
 */
export async function mintApiKey(
  database: ApiKeyDatabase,
  id: string,
  request: NewApiKey,
  now = new Date(),
): Promise<{ statement: D1PreparedStatement; record: AdminApiKey; key: string }> {
  const issues: { path: string; message: string }[] = [];
  const name = request.name.trim();
  if (name.length === 0 || name.length > API_KEY_LIMITS.nameLength)
    issues.push({ path: "body.name", message: `1 to ${API_KEY_LIMITS.nameLength} characters` });
  if (request.scopes.length === 0 || request.scopes.length > API_KEY_LIMITS.scopes)
    issues.push({ path: "body.scopes", message: `1 to ${API_KEY_LIMITS.scopes} scopes` });
  request.scopes.forEach((scope, index) => {
    if (!isApiKeyScope(scope))
      issues.push({
        path: `body.scopes.${index}`,
        message: "`*`, a namespace or a procedure path (`messages:send`), optionally `.readonly`",
      });
  });
  const seconds = request.expiresInSeconds;
  if (
    seconds !== undefined &&
    !(Number.isInteger(seconds) && seconds > 0 && seconds <= API_KEY_LIMITS.expiresInSeconds)
  )
    issues.push({
      path: "body.expiresInSeconds",
      message: `a whole number of seconds from 1 to ${API_KEY_LIMITS.expiresInSeconds}`,
    });
  if (issues.length > 0) throw validationFailed(issues);
  const { key, prefix, hash } = await generateApiKey();
  const { statement, record } = insertApiKey(
    database,
    id,
    {
      name,
      prefix,
      hash,
      owner: request.owner,
      scopes: [...new Set(request.scopes)],
      createdAt: now,
      createdBy: request.createdBy,
      expiresAt: seconds === undefined ? null : new Date(now.getTime() + seconds * 1000),
    },
    request.maxInForce,
  );
  return { statement, record, key };
}

/**
 * Refuses (`NOT_FOUND`) a key whose owner does not exist: a user, or an
 * organization (which needs the organization plugin).
 *
 * @example await assertOwnerExists(database, { organizationId: "o1" });
 */
export async function assertOwnerExists(
  { db, names }: ApiKeyDatabase,
  owner: ApiKeyOwner,
): Promise<void> {
  const model = "userId" in owner ? "user" : "organization";
  const id = "userId" in owner ? owner.userId : owner.organizationId;
  const found =
    names.hasModel(model) &&
    (await db
      .prepare(`SELECT 1 AS found FROM ${names.table(model)} WHERE id = ?`)
      .bind(id)
      .first());
  if (!found) throw new SvcError("NOT_FOUND", `No ${model} with id ${JSON.stringify(id)}.`);
}
