import { json } from "../http.ts";
import { Keyset } from "../keyset.ts";
import { DEFAULT_LIMIT, limitParser, parseQuery, text } from "../query.ts";
import { type Row, toInvitation, toMember, toOrganization } from "../records.ts";
import type { AdminCall, ParamsOf } from "../router.ts";
import {
  invitationQuery,
  loadOrganization,
  memberQuery,
  organizationNotFound,
  selectOrganization,
} from "./load.ts";

const PAGE_QUERY = { limit: limitParser, cursor: text(2000) };

/**
 * `GET organizations/:id`.
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/organizations/o1 → { organization }
 * ```
 */
export async function getOrganization(
  call: AdminCall<ParamsOf<"organizations/:id">>,
): Promise<Response> {
  return json({
    organization: toOrganization(await loadOrganization(call.environment, call.params.id)),
  });
}

/**
 * `GET organizations/:id/members`: oldest first (founders on page one), each
 * with the member's user id, email and name (one join, no query per member).
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/organizations/o1/members?limit=50 → { members, nextCursor }
 * ```
 */
export function listMembers(call: AdminCall<ParamsOf<"organizations/:id">>): Promise<Response> {
  return pageWithin(call, {
    model: "member",
    key: "members",
    direction: "asc",
    ...memberQuery(call.environment.names),
    shape: toMember,
  });
}

/**
 * `GET organizations/:id/invitations`: newest first, each with its inviter's
 * id and email (`null` once the inviter is gone).
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/organizations/o1/invitations → { invitations, nextCursor }
 * ```
 */
export function listInvitations(call: AdminCall<ParamsOf<"organizations/:id">>): Promise<Response> {
  return pageWithin(call, {
    model: "invitation",
    key: "invitations",
    direction: "desc",
    ...invitationQuery(call.environment.names),
    shape: toInvitation,
  });
}

interface WithinSpec {
  model: "member" | "invitation";
  key: "members" | "invitations";
  direction: "asc" | "desc";
  /** Select list over alias `m` (the model) and whatever `join` adds. */
  select: string;
  join: string;
  shape: (row: Row) => unknown;
}

/** One keyset page of an organization's members or invitations, after checking it exists (one batch). */
async function pageWithin(
  call: AdminCall<ParamsOf<"organizations/:id">>,
  spec: WithinSpec,
): Promise<Response> {
  const { environment } = call;
  const { names, db } = environment;
  const query = parseQuery(call.url, PAGE_QUERY);
  const id = call.params.id;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const keyset = new Keyset(
    {
      kind: `${spec.key}:created:${spec.direction}`,
      column: names.column(spec.model, "createdAt", "m"),
      id: names.column(spec.model, "id", "m"),
      direction: spec.direction,
    },
    query.cursor,
  );
  const conditions = [`${names.column(spec.model, "organizationId", "m")} = ?`, ...keyset.where()];
  const [organization, rows] = await db.batch<Row>([
    selectOrganization(environment, id),
    db
      .prepare(
        `SELECT ${spec.select}, ${keyset.sortSelect()} FROM ${names.table(spec.model)} m ${spec.join} ` +
          `WHERE ${conditions.join(" AND ")} ORDER BY ${keyset.orderBy()} LIMIT ?`,
      )
      .bind(id, ...keyset.binds(), limit + 1),
  ]);
  if (organization?.results[0] === undefined) throw organizationNotFound(id);
  const page = keyset.cut(rows?.results ?? [], limit);
  return json({ [spec.key]: page.rows.map(spec.shape), nextCursor: page.nextCursor });
}
