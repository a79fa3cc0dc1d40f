import { DEFAULT_LIMIT } from "../contract/index.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Keyset } from "../keyset.ts";
import { type Row, toInvitation, toMember, toOrganization } from "../records.ts";
import {
  invitationQuery,
  loadOrganization,
  memberQuery,
  organizationNotFound,
  selectOrganization,
} from "./load.ts";

/**
 * `GET organizations/:id`.
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/organizations/o1 → { organization }
 * ```
 */
export async function getOrganization(
  call: AdminCall<"getOrganization">,
): Promise<AdminAnswer<"getOrganization">> {
  return {
    organization: toOrganization(await loadOrganization(call.ctx.environment, call.params.id)),
  };
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
export async function listMembers(
  call: AdminCall<"listMembers">,
): Promise<AdminAnswer<"listMembers">> {
  const page = await pageWithin(call, {
    model: "member",
    key: "members",
    direction: "asc",
    ...memberQuery(call.ctx.environment.names),
    shape: toMember,
  });
  return { members: page.rows, nextCursor: page.nextCursor };
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
export async function listInvitations(
  call: AdminCall<"listInvitations">,
): Promise<AdminAnswer<"listInvitations">> {
  const page = await pageWithin(call, {
    model: "invitation",
    key: "invitations",
    direction: "desc",
    ...invitationQuery(call.ctx.environment.names),
    shape: toInvitation,
  });
  return { invitations: page.rows, nextCursor: page.nextCursor };
}

interface WithinSpec<T> {
  model: "member" | "invitation";
  key: "members" | "invitations";
  direction: "asc" | "desc";
  /** Select list over alias `m` (the model) and whatever `join` adds. */
  select: string;
  join: string;
  shape: (row: Row) => T;
}

/** One keyset page of an organization's members or invitations, after checking it exists (one batch). */
async function pageWithin<T>(
  call: AdminCall<"listMembers" | "listInvitations">,
  spec: WithinSpec<T>,
): Promise<{ rows: T[]; nextCursor: string | null }> {
  const { environment } = call.ctx;
  const { names, db } = environment;
  const { query } = call;
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
  return { rows: page.rows.map(spec.shape), nextCursor: page.nextCursor };
}
