import { SvcError } from "@svc/server";
import { callAuthEndpoint, idOf } from "../auth-endpoint.ts";
import type { AdminEnvironment } from "../environment.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { type Row, toOrganization } from "../records.ts";
import { removalStatements } from "../users/cascade.ts";
import { loadUserRow } from "../users/load.ts";
import { leaveActiveOrganization } from "./active-organization.ts";
import { checkOrganizationFields, type OrganizationFields } from "./fields.ts";
import { loadOrganization, selectOrganization } from "./load.ts";

/**
 * `POST organizations` with `{ name, slug, ownerId, logo?, metadata? }`:
 * creates the organization through better-auth's own endpoint as the trusted
 * server, with `ownerId` (an existing user) as its first member in the
 * creator role, so the plugin's limits and `organizationHooks` apply as for
 * its own clients. A taken slug is `409`.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/organizations { "name": "Acme", "slug": "acme", "ownerId": "u1" } → 201 { organization }
 * ```
 */
export async function createOrganization(
  call: AdminCall<"createOrganization">,
): Promise<AdminAnswer<"createOrganization">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const body = call.body;
  const fields = checkOrganizationFields(body, ["name", "slug"]);
  await loadUserRow(environment, body.ownerId);
  await assertSlugFree(environment, fields.slug ?? "", null);
  const result = await callAuthEndpoint(environment, "createOrganization", {
    name: fields.name,
    slug: fields.slug,
    userId: body.ownerId,
    ...(fields.logo ? { logo: fields.logo } : {}),
    ...(body.metadata ? { metadata: body.metadata } : {}),
  });
  const id = idOf(result, "createOrganization");
  audit.target = { targetType: "organization", targetId: id, userId: body.ownerId };
  audit.detail = `created ${JSON.stringify(fields.slug)} owned by ${body.ownerId}`;
  return { organization: toOrganization(await loadOrganization(environment, id)) };
}

/**
 * `PATCH organizations/:id` with any of `{ name, slug, logo, metadata }`
 * (`logo` / `metadata` `null` clears them): writes the row directly, with
 * the audit entry in the same batch. A taken slug is `409`.
 *
 * @example
 * ```ts
 * PATCH /_svc/admin/auth/organizations/o1 { "name": "Acme Inc." } → { organization }
 * ```
 */
export async function updateOrganization(
  call: AdminCall<"updateOrganization">,
): Promise<AdminAnswer<"updateOrganization">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { names, db } = environment;
  const id = call.params.id;
  const fields = checkOrganizationFields(call.body);
  const before = await loadOrganization(environment, id);
  if (fields.slug !== undefined) await assertSlugFree(environment, fields.slug, id);
  const changed = changedFields(before, fields);
  if (changed.length === 0) {
    audit.detail = "nothing changed";
    return { organization: toOrganization(before) };
  }
  audit.detail = changed.map(([field]) => field).join(", ");
  const assignments = changed.map(([field]) => `${names.column("organization", field)} = ?`);
  const results = await db.batch<Row>([
    db
      .prepare(
        `UPDATE ${names.table("organization")} SET ${assignments.join(", ")} ` +
          `WHERE ${names.column("organization", "id")} = ?`,
      )
      .bind(...changed.map(([, value]) => value), id),
    audit.okStatement(),
    selectOrganization(environment, id),
  ]);
  return { organization: toOrganization(results[2]?.results[0] ?? before) };
}

/**
 * `DELETE organizations/:id`: removes the organization with its members,
 * invitations, teams and everything else the schema says depends on it, and
 * clears it as the active organization of sessions, in one D1 batch with the
 * audit entry. The dashboard asks for the slug to be typed first.
 *
 * @example
 * ```ts
 * DELETE /_svc/admin/auth/organizations/o1 → { deleted: true, members: 3 }
 * ```
 */
export async function deleteOrganization(
  call: AdminCall<"deleteOrganization">,
): Promise<AdminAnswer<"deleteOrganization">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { db } = environment;
  const id = call.params.id;
  const organization = await loadOrganization(environment, id);
  const statements = [
    ...leaveActiveOrganization(environment, id),
    ...(await removalStatements(environment, "organization", id)),
  ];
  const members = Number(organization.memberCount ?? 0);
  audit.detail = `deleted ${JSON.stringify(String(organization.slug))} with ${members} members`;
  await db.batch([...statements, audit.okStatement()]);
  return { deleted: true, members };
}

/** Refuses a slug another organization has (better-auth's own check says only "already exists"). */
async function assertSlugFree(
  environment: AdminEnvironment,
  slug: string,
  ownId: string | null,
): Promise<void> {
  const { names, db } = environment;
  const taken = await db
    .prepare(
      `SELECT ${names.column("organization", "id")} AS id FROM ${names.table("organization")} ` +
        `WHERE ${names.column("organization", "slug")} = ?`,
    )
    .bind(slug)
    .first<{ id: string }>();
  if (taken !== null && taken.id !== ownId) {
    throw new SvcError(
      "CONFLICT",
      `Another organization already has the slug ${JSON.stringify(slug)}.`,
      {
        issues: [{ path: "body.slug", message: "is taken by another organization" }],
      },
    );
  }
}

/** The fields whose new value differs from the stored one, as column / value pairs. */
function changedFields(before: Row, fields: OrganizationFields): [string, unknown][] {
  return Object.entries(fields).filter(([field, value]) => {
    const stored = before[field];
    return (stored ?? null) !== value;
  });
}
