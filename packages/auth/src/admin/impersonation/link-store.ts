import { sha256Hex } from "../../sha256-hex.ts";
import type { AdminEnvironment } from "../environment.ts";

/**
 * How long an "open the app as this user" link stays usable: long enough to
 * open it, short enough that a leaked link is worthless. The session it
 * starts has its own, separate bound (`options.impersonation`).
 */
export const LINK_TTL_SECONDS = 120;

/** `verification.identifier` prefix of link rows; the rest is the code's SHA-256. */
const IDENTIFIER_PREFIX = "svc-impersonation-link:";
/** 32 random bytes, base64url: 256 bits, so guessing a live code is hopeless even unthrottled. */
const CODE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What a link stands for: who is impersonated, by whom, why, for how long, and where it lands. */
export interface LinkGrant {
  userId: string;
  operator: string;
  reason: string | null;
  durationSeconds: number;
  redirectTo: string;
}

/** A stored link: its grant, the row id the audit trail names it by, and its expiry. */
export interface StoredLink extends LinkGrant {
  id: string;
  expiresAt: Date;
}

/**
 * Stores a new link in better-auth's `verification` table and answers its
 * code: the only place the code exists. The row keeps the code's SHA-256
 * (in `identifier`), never the code, so a database read cannot use a link.
 *
 * @example
 * ```ts
 * const { code, id, expiresAt } = await createLink(environment, { userId, operator, reason, durationSeconds, redirectTo });
 * ```
 */
export async function createLink(
  environment: AdminEnvironment,
  grant: LinkGrant,
): Promise<{ code: string; id: string; expiresAt: Date }> {
  const { names, db, auth } = environment;
  const code = base64Url(crypto.getRandomValues(new Uint8Array(32)));
  const now = new Date();
  const expiresAt = new Date(now.getTime() + LINK_TTL_SECONDS * 1000);
  const id = auth.generateId({ model: "verification" });
  const values: [string, unknown][] = [
    ["identifier", await identifierOf(code)],
    ["value", JSON.stringify(grant)],
    ["expiresAt", expiresAt.toISOString()],
    ["createdAt", now.toISOString()],
    ["updatedAt", now.toISOString()],
  ];
  if (id !== false) values.unshift(["id", id]);
  const columns = values.map(([field]) => names.column("verification", field)).join(", ");
  const row = await db
    .prepare(
      `INSERT INTO ${names.table("verification")} (${columns}) ` +
        `VALUES (${values.map(() => "?").join(", ")}) RETURNING id`,
    )
    .bind(...values.map(([, value]) => value))
    .first<{ id: string | number }>();
  return { code, id: String(row?.id ?? id), expiresAt };
}

/**
 * The live link behind `code`, without using it (the page a `GET` shows);
 * `null` when the code is malformed, unknown, used or expired.
 *
 * @example
 * ```ts
 * const link = await peekLink(environment, code);
 * ```
 */
export async function peekLink(
  environment: AdminEnvironment,
  code: string,
): Promise<StoredLink | null> {
  return readLink(
    environment,
    code,
    (table, match, columns) => `SELECT ${columns} FROM ${table} WHERE ${match}`,
  );
}

/**
 * Uses the link behind `code`: deletes its row and answers what it stood
 * for, in one `DELETE … RETURNING`, so of two concurrent uses exactly one
 * gets the link. An expired row is deleted too, and answers `null`.
 *
 * @example
 * ```ts
 * const link = await consumeLink(environment, code); // null the second time
 * ```
 */
export async function consumeLink(
  environment: AdminEnvironment,
  code: string,
): Promise<StoredLink | null> {
  return readLink(
    environment,
    code,
    (table, match, columns) => `DELETE FROM ${table} WHERE ${match} RETURNING ${columns}`,
  );
}

/**
 * Runs one statement over the row of `code` (built from the table, the
 * identifier match and the link columns) and answers the link if it is live.
 */
async function readLink(
  environment: AdminEnvironment,
  code: string,
  statement: (table: string, match: string, columns: string) => string,
): Promise<StoredLink | null> {
  if (!CODE_PATTERN.test(code)) return null;
  const { names, db } = environment;
  const row = await db
    .prepare(statement(names.table("verification"), where(environment), linkColumns(environment)))
    .bind(await identifierOf(code))
    .first<LinkRow>();
  return live(row);
}

interface LinkRow {
  id: string | number;
  value: string;
  expiresAt: string | number;
}

function linkColumns({ names }: AdminEnvironment): string {
  return (
    `${names.column("verification", "id")} AS id, ` +
    `${names.column("verification", "value")} AS value, ` +
    `${names.column("verification", "expiresAt")} AS expiresAt`
  );
}

function where({ names }: AdminEnvironment): string {
  return `${names.column("verification", "identifier")} = ?`;
}

function live(row: LinkRow | null): StoredLink | null {
  if (row === null) return null;
  const expiresAt = new Date(row.expiresAt);
  if (!(expiresAt.getTime() > Date.now())) return null;
  const grant = JSON.parse(row.value) as LinkGrant;
  return { ...grant, id: String(row.id), expiresAt };
}

async function identifierOf(code: string): Promise<string> {
  return `${IDENTIFIER_PREFIX}${await sha256Hex(code)}`;
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}
