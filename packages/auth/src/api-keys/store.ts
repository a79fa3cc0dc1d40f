import type { AdminApiKey } from "../admin/contract/index.ts";
import type { SqlNames } from "../admin/sql-names.ts";
import { API_KEY_MODEL } from "./schema.ts";

/** Where API keys live: the auth's D1 database and its physical names. */
export interface ApiKeyDatabase {
  /** The D1 binding, or a Sessions API session over it (the admin API's reads). */
  db: D1Database | D1DatabaseSession;
  names: SqlNames;
}

/** Who owns a key: exactly one of a user and an organization. */
export type ApiKeyOwner = { userId: string } | { organizationId: string };

/** The fields of an {@link AdminApiKey}, the allow-list every answer shows. */
const RECORD_FIELDS = [
  "id",
  "name",
  "prefix",
  "ownerUserId",
  "ownerOrganizationId",
  "scopes",
  "createdAt",
  "createdBy",
  "expiresAt",
  "lastUsedAt",
  "revokedAt",
] as const;

type Row = Record<(typeof RECORD_FIELDS)[number], string | null>;

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

function toRecord(row: Row): AdminApiKey {
  return {
    id: String(row.id),
    name: String(row.name),
    prefix: String(row.prefix),
    ownerUserId: row.ownerUserId,
    ownerOrganizationId: row.ownerOrganizationId,
    scopes: JSON.parse(String(row.scopes)) as string[],
    createdAt: iso(row.createdAt) ?? "",
    createdBy: String(row.createdBy),
    expiresAt: iso(row.expiresAt),
    lastUsedAt: iso(row.lastUsedAt),
    revokedAt: iso(row.revokedAt),
  };
}

const selectRecord = (names: SqlNames, alias: string) =>
  names.select(API_KEY_MODEL, RECORD_FIELDS, alias);

/** What a new key's row holds besides its id. */
export interface NewApiKeyRow {
  name: string;
  prefix: string;
  hash: string;
  owner: ApiKeyOwner;
  scopes: readonly string[];
  createdAt: Date;
  createdBy: string;
  expiresAt: Date | null;
}

/**
 * The statement that inserts a key (run alone, or in a batch with its audit
 * record), and the record it creates.
 *
 * @example
 * ```ts
 * const { statement, record } = insertApiKey(database, id, row);
 * await db.batch([statement, audit.okStatement()]);
 * ```
 */
export function insertApiKey(
  { db, names }: ApiKeyDatabase,
  id: string,
  row: NewApiKeyRow,
  maxInForce?: number,
): { statement: D1PreparedStatement; record: AdminApiKey } {
  const ownerUserId = "userId" in row.owner ? row.owner.userId : null;
  const ownerOrganizationId = "organizationId" in row.owner ? row.owner.organizationId : null;
  const values = {
    id,
    name: row.name,
    prefix: row.prefix,
    keyHash: row.hash,
    ownerUserId,
    ownerOrganizationId,
    scopes: JSON.stringify(row.scopes),
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
  const columns = Object.keys(values).map((field) => names.column(API_KEY_MODEL, field));
  const into = `INSERT INTO ${names.table(API_KEY_MODEL)} (${columns.join(", ")})`;
  const placeholders = columns.map(() => "?").join(", ");
  // With a cap, the count and the insert are one statement: SQLite runs it alone, so parallel
  // creates cannot all see the same count (30 at once left 30 keys against a cap of 25).
  const statement =
    maxInForce === undefined
      ? db.prepare(`${into} VALUES (${placeholders})`).bind(...Object.values(values))
      : db
          .prepare(
            `${into} SELECT ${placeholders} WHERE (${countInForce(names, ownerUserId !== null)}) < ?`,
          )
          .bind(
            ...Object.values(values),
            ownerUserId ?? ownerOrganizationId,
            values.createdAt,
            maxInForce,
          );
  const record: AdminApiKey = {
    id,
    name: row.name,
    prefix: row.prefix,
    ownerUserId,
    ownerOrganizationId,
    scopes: [...row.scopes],
    createdAt: values.createdAt,
    createdBy: row.createdBy,
    expiresAt: values.expiresAt,
    lastUsedAt: null,
    revokedAt: null,
  };
  return { statement, record };
}

/** SQL counting the keys in force (not revoked, not expired at `?`) of the user or organization `?`. */
function countInForce(names: SqlNames, ofUser: boolean): string {
  const column = (field: string) => names.column(API_KEY_MODEL, field, "c");
  return (
    `SELECT COUNT(*) FROM ${names.table(API_KEY_MODEL)} c ` +
    `WHERE ${column(ofUser ? "ownerUserId" : "ownerOrganizationId")} = ? ` +
    `AND ${column("revokedAt")} IS NULL AND (${column("expiresAt")} IS NULL OR ${column("expiresAt")} > ?)`
  );
}

/**
 * An owner's keys (or every key), newest first, revoked ones included.
 *
 * @example await listApiKeys(database, { userId: "u1" })
 */
export async function listApiKeys(
  { db, names }: ApiKeyDatabase,
  owner: ApiKeyOwner | null,
  limit = 200,
): Promise<AdminApiKey[]> {
  const where =
    owner === null
      ? ""
      : `WHERE ${names.column(API_KEY_MODEL, "userId" in owner ? "ownerUserId" : "ownerOrganizationId", "k")} = ?`;
  const bindings = owner === null ? [] : ["userId" in owner ? owner.userId : owner.organizationId];
  const { results } = await db
    .prepare(
      `SELECT ${selectRecord(names, "k")} FROM ${names.table(API_KEY_MODEL)} k ${where} ` +
        `ORDER BY ${names.column(API_KEY_MODEL, "createdAt", "k")} DESC LIMIT ?`,
    )
    .bind(...bindings, limit)
    .all<Row>();
  return results.map(toRecord);
}

/**
 * One key by id, or `null`.
 *
 * @example await findApiKey(database, "k1")
 */
export async function findApiKey(
  { db, names }: ApiKeyDatabase,
  id: string,
): Promise<AdminApiKey | null> {
  const row = await db
    .prepare(
      `SELECT ${selectRecord(names, "k")} FROM ${names.table(API_KEY_MODEL)} k WHERE k.id = ?`,
    )
    .bind(id)
    .first<Row>();
  return row === null ? null : toRecord(row);
}

/**
 * The statement that revokes a key now (a revoked key stays listed, marked;
 * revoking twice keeps the first time).
 *
 * @example await revokeApiKeyStatement(database, "k1", new Date()).run();
 */
export function revokeApiKeyStatement(
  { db, names }: ApiKeyDatabase,
  id: string,
  at: Date,
): D1PreparedStatement {
  const revokedAt = names.column(API_KEY_MODEL, "revokedAt");
  return db
    .prepare(
      `UPDATE ${names.table(API_KEY_MODEL)} SET ${revokedAt} = COALESCE(${revokedAt}, ?) WHERE id = ?`,
    )
    .bind(at.toISOString(), id);
}

/**
 * The statement that deletes every key of an owner, for deleting that user
 * or organization (D1 runs without cascades).
 *
 * @example await db.batch([deleteApiKeysOfStatement(database, { userId: "u1" }), deleteUser]);
 */
export function deleteApiKeysOfStatement(
  { db, names }: ApiKeyDatabase,
  owner: ApiKeyOwner,
): D1PreparedStatement {
  const field = "userId" in owner ? "ownerUserId" : "ownerOrganizationId";
  return db
    .prepare(
      `DELETE FROM ${names.table(API_KEY_MODEL)} WHERE ${names.column(API_KEY_MODEL, field)} = ?`,
    )
    .bind("userId" in owner ? owner.userId : owner.organizationId);
}

/** A key found by its hash, with whether its owner still exists and may act. */
export interface ApiKeyLookup {
  record: AdminApiKey;
  /** The owning user or organization still exists and the user is not banned. */
  ownerActive: boolean;
}

/**
 * The key with this hash and the state of its owner (one query: the owner
 * user's row and ban, or the owner organization's row), or `null`.
 *
 * @example await lookupApiKey(database, await hashApiKey(presented))
 */
export async function lookupApiKey(
  { db, names }: ApiKeyDatabase,
  hash: string,
): Promise<ApiKeyLookup | null> {
  const banned = names.hasField("user", "banned");
  const organizations = names.hasModel("organization");
  const userJoin = `LEFT JOIN ${names.table("user")} u ON u.id = ${names.column(API_KEY_MODEL, "ownerUserId", "k")}`;
  const orgJoin = organizations
    ? `LEFT JOIN ${names.table("organization")} o ON o.id = ${names.column(API_KEY_MODEL, "ownerOrganizationId", "k")}`
    : "";
  const row = await db
    .prepare(
      `SELECT ${selectRecord(names, "k")}, u.id AS "ownerUser", ` +
        `${banned ? `${names.column("user", "banned", "u")}` : "NULL"} AS "banned", ` +
        `${banned ? `${names.column("user", "banExpires", "u")}` : "NULL"} AS "banExpires", ` +
        `${organizations ? "o.id" : "NULL"} AS "ownerOrganization" ` +
        `FROM ${names.table(API_KEY_MODEL)} k ${userJoin} ${orgJoin} ` +
        `WHERE ${names.column(API_KEY_MODEL, "keyHash", "k")} = ?`,
    )
    .bind(hash)
    .first<
      Row & {
        ownerUser: string | null;
        banned: number | null;
        banExpires: string | null;
        ownerOrganization: string | null;
      }
    >();
  if (row === null) return null;
  const record = toRecord(row);
  const isBanned =
    row.banned === 1 && (row.banExpires === null || Date.parse(row.banExpires) > Date.now());
  const ownerActive =
    record.ownerUserId !== null
      ? row.ownerUser !== null && !isBanned
      : row.ownerOrganization !== null;
  return { record, ownerActive };
}

/**
 * Records that a key was used at `at`, unless a use since `notBefore` was
 * recorded already (so concurrent isolates write at most once per interval).
 *
 * @example await touchApiKey(database, "k1", new Date(), new Date(Date.now() - 60_000));
 */
export async function touchApiKey(
  { db, names }: ApiKeyDatabase,
  id: string,
  at: Date,
  notBefore: Date,
): Promise<void> {
  const lastUsedAt = names.column(API_KEY_MODEL, "lastUsedAt");
  await db
    .prepare(
      `UPDATE ${names.table(API_KEY_MODEL)} SET ${lastUsedAt} = ? WHERE id = ? AND (${lastUsedAt} IS NULL OR ${lastUsedAt} < ?)`,
    )
    .bind(at.toISOString(), id, notBefore.toISOString())
    .run();
}
