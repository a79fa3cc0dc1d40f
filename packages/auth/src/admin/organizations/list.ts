import { DEFAULT_LIMIT } from "../contract/index.ts";
import type { AdminEnvironment } from "../environment.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Keyset } from "../keyset.ts";
import { ORGANIZATION_FIELDS, type Row, toOrganization } from "../records.ts";
import { contains } from "../search.ts";

/**
 * `GET organizations`: newest first, with member counts, the total and the
 * next cursor (page + count in one D1 batch; member counts are a correlated
 * count per row over the `member.organizationId` index, not a query per
 * organization). `search`: case-insensitive contains on name and slug, exact
 * on id. Without the organization surface it answers
 * `{ enabled: false, organizations: [], total: 0, nextCursor: null }`, the
 * state the dashboard shows as "organizations are not enabled".
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/organizations?search=acme → { enabled: true, organizations, total, nextCursor }
 * ```
 */
export async function listOrganizations(
  call: AdminCall<"listOrganizations">,
): Promise<AdminAnswer<"listOrganizations">> {
  const { environment } = call.ctx;
  const query = call.query;
  if (!environment.capabilities.organizations) {
    return { enabled: false, organizations: [], total: 0, nextCursor: null };
  }
  const { names, db } = environment;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const keyset = new Keyset(
    {
      kind: "organizations:created:desc",
      column: names.column("organization", "createdAt", "o"),
      id: names.column("organization", "id", "o"),
      direction: "desc",
    },
    query.cursor,
  );
  const filters: string[] = [];
  const binds: unknown[] = [];
  if (query.search !== undefined) {
    const term = query.search;
    const matches = ["name", "slug"].map((field) =>
      contains(names.column("organization", field, "o"), term),
    );
    filters.push(
      `(${matches.map((match) => match.sql).join(" OR ")} OR ${names.column("organization", "id", "o")} = ?)`,
    );
    binds.push(...matches.flatMap((match) => match.binds), term);
  }
  const where = (conditions: string[]) =>
    conditions.length === 0 ? "" : ` WHERE ${conditions.join(" AND ")}`;
  const from = `FROM ${names.table("organization")} o`;
  const [rows, total] = await db.batch<Row>([
    db
      .prepare(
        `SELECT ${organizationColumns(environment)}, ${keyset.sortSelect()} ${from}` +
          `${where([...filters, ...keyset.where()])} ORDER BY ${keyset.orderBy(query.search !== undefined)} LIMIT ?`,
      )
      .bind(...binds, ...keyset.binds(), limit + 1),
    db.prepare(`SELECT COUNT(*) AS total ${from}${where(filters)}`).bind(...binds),
  ]);
  const page = keyset.cut(rows?.results ?? [], limit);
  return {
    enabled: true,
    organizations: page.rows.map(toOrganization),
    total: Number(total?.results[0]?.total ?? 0),
    nextCursor: page.nextCursor,
  };
}

/**
 * The organization columns (alias `o`) plus its member count.
 *
 * @example
 * ```ts
 * `SELECT ${organizationColumns(environment)} FROM "organization" o WHERE …`;
 * ```
 */
export function organizationColumns(environment: AdminEnvironment): string {
  const { names } = environment;
  const memberCount =
    `(SELECT COUNT(*) FROM ${names.table("member")} m ` +
    `WHERE ${names.column("member", "organizationId", "m")} = ${names.column("organization", "id", "o")}) AS "memberCount"`;
  return `${names.select("organization", ORGANIZATION_FIELDS, "o")}, ${memberCount}`;
}
