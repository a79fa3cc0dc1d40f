import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { adminJson, signIn, signUp } from "./admin-http.ts";
import { adminAuth, invitationOutbox } from "./fixture/admin.ts";
import { freshEmail } from "./http.ts";

const PASSWORD = "organization-password-1";

interface Organization {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
  memberCount: number;
}
interface Member {
  id: string;
  role: string;
  user: { id: string; email: string };
}
interface Invitation {
  id: string;
  email: string;
  role: string;
  status: string;
  expiresAt: string;
  inviter: { id: string; email: string } | null;
}

async function person(label: string) {
  const email = freshEmail(label);
  const id = await signUp(email, PASSWORD);
  const { token } = await signIn(email, PASSWORD);
  return { email, id, headers: new Headers({ authorization: `Bearer ${token}` }) };
}

async function createOrganization(ownerId: string, slug = `org-${crypto.randomUUID()}`) {
  const { organization } = await adminJson<{ organization: Organization }>(
    "POST",
    "organizations",
    201,
    { body: { name: "Acme", slug, ownerId } },
  );
  return organization;
}

/** The organization's members as better-auth itself lists them to a member. */
async function membersSeenBy(headers: Headers, organizationId: string) {
  const listed = await adminAuth.api.listMembers({ query: { organizationId }, headers });
  return listed.members.map((member) => ({ email: member.user.email, role: member.role }));
}

async function auditOf(action: string, target: string) {
  const { entries } = await adminJson<{ entries: { detail: string; outcome: string }[] }>(
    "GET",
    `audit?action=${action}&target=${encodeURIComponent(target)}`,
    200,
  );
  return entries;
}

describe("organizations", () => {
  it("creates one owned by an existing user, as better-auth's own create would", async () => {
    const owner = await person("org-owner");
    const slug = `acme-${crypto.randomUUID()}`;
    const organization = await createOrganization(owner.id, slug);
    expect(organization).toMatchObject({ name: "Acme", slug, memberCount: 1, metadata: null });
    expect(await membersSeenBy(owner.headers, organization.id)).toEqual([
      { email: owner.email, role: "owner" },
    ]);
    expect(await auditOf("organization.create", organization.id)).toMatchObject([
      { outcome: "ok", detail: `created ${JSON.stringify(slug)} owned by ${owner.id}` },
    ]);

    expect(
      await adminJson("POST", "organizations", 409, {
        body: { name: "Again", slug, ownerId: owner.id },
      }),
    ).toMatchObject({ code: "CONFLICT" });
    const invalid = await adminJson<{ errors: { path: string }[] }>("POST", "organizations", 400, {
      body: { name: " ", slug: "Not A Slug", ownerId: owner.id, logo: "javascript:alert(1)" },
    });
    expect(invalid.errors.map((error) => error.path).sort()).toEqual([
      "body.logo",
      "body.name",
      "body.slug",
    ]);
    expect(
      await adminJson("POST", "organizations", 404, {
        body: { name: "Nobody's", slug: `x-${crypto.randomUUID()}`, ownerId: "no-such-user" },
      }),
    ).toMatchObject({ code: "NOT_FOUND" });
  });

  it("edits name, slug, logo and metadata; clears them with null; refuses a taken slug", async () => {
    const owner = await person("org-edit");
    const organization = await createOrganization(owner.id);
    const other = await createOrganization(owner.id);
    const slug = `renamed-${crypto.randomUUID()}`;
    const { organization: edited } = await adminJson<{ organization: Organization }>(
      "PATCH",
      `organizations/${organization.id}`,
      200,
      {
        body: {
          name: "Acme Inc.",
          slug,
          logo: "https://example.com/logo.png",
          metadata: { plan: "pro", seats: 5 },
        },
      },
    );
    expect(edited).toMatchObject({
      name: "Acme Inc.",
      slug,
      logo: "https://example.com/logo.png",
      metadata: { plan: "pro", seats: 5 },
    });
    const seen = await adminAuth.api.getFullOrganization({
      query: { organizationId: organization.id },
      headers: owner.headers,
    });
    // better-auth keeps metadata as JSON text and answers it so; svc parses it for the operator.
    expect(seen).toMatchObject({ name: "Acme Inc.", slug });
    expect(JSON.parse(String(seen?.metadata))).toEqual({ plan: "pro", seats: 5 });

    const { organization: cleared } = await adminJson<{ organization: Organization }>(
      "PATCH",
      `organizations/${organization.id}`,
      200,
      { body: { logo: null, metadata: null } },
    );
    expect(cleared).toMatchObject({ name: "Acme Inc.", logo: null, metadata: null });
    expect(
      await adminJson("PATCH", `organizations/${organization.id}`, 409, {
        body: { slug: other.slug },
      }),
    ).toMatchObject({ detail: `Another organization already has the slug "${other.slug}".` });
    expect(await auditOf("organization.update", organization.id)).toMatchObject([
      { outcome: "error" },
      { outcome: "ok", detail: "logo, metadata" },
      { outcome: "ok", detail: "name, slug, logo, metadata" },
    ]);
  });

  it("deletes it with its members and invitations, and clears it from sessions", async () => {
    const owner = await person("org-delete");
    const organization = await createOrganization(owner.id);
    await adminAuth.api.setActiveOrganization({
      body: { organizationId: organization.id },
      headers: owner.headers,
    });
    await adminJson("POST", `organizations/${organization.id}/invitations`, 201, {
      body: { email: freshEmail("org-delete-invitee"), role: "member" },
    });
    expect(await adminJson("DELETE", `organizations/${organization.id}`, 200)).toEqual({
      deleted: true,
      members: 1,
    });
    await adminJson("GET", `organizations/${organization.id}`, 404);
    const left = await env.ADMIN_DB.prepare(
      `SELECT (SELECT COUNT(*) FROM "member" WHERE "organizationId" = ?1) AS members,
              (SELECT COUNT(*) FROM "invitation" WHERE "organizationId" = ?1) AS invitations,
              (SELECT COUNT(*) FROM "session" WHERE "activeOrganizationId" = ?1) AS sessions`,
    )
      .bind(organization.id)
      .first();
    expect(left).toEqual({ members: 0, invitations: 0, sessions: 0 });
    const session = await adminAuth.api.getSession({ headers: owner.headers });
    expect(session?.user.id).toBe(owner.id);
  });
});

describe("members", () => {
  it("adds an existing user by email, changes roles, and guards the last owner", async () => {
    const owner = await person("members-owner");
    const colleague = await person("members-colleague");
    const organization = await createOrganization(owner.id);
    const base = `organizations/${organization.id}/members`;

    const { member } = await adminJson<{ member: Member }>("POST", base, 201, {
      body: { email: colleague.email.toUpperCase(), role: "admin" },
    });
    expect(member).toMatchObject({ role: "admin", user: { id: colleague.id } });
    // The audit line names the added user by id in its detail and by name and email beside it.
    const { entries: added } = await adminJson<{ entries: unknown[] }>(
      "GET",
      `audit?action=member.add&target=${organization.id}`,
      200,
    );
    expect(added).toMatchObject([
      {
        userId: colleague.id,
        user: { name: "Test User", email: colleague.email },
        detail: `added ${colleague.id} as admin`,
      },
    ]);
    // The colleague's drawer lists the organization, with only allow-listed fields.
    const { memberships } = await adminJson<{ memberships: Record<string, unknown>[] }>(
      "GET",
      `users/${colleague.id}/organizations`,
      200,
    );
    expect(memberships).toEqual([
      {
        id: member.id,
        role: "admin",
        createdAt: expect.any(String),
        organization: { id: organization.id, name: "Acme", slug: organization.slug },
      },
    ]);
    expect(await adminJson("GET", `users/${crypto.randomUUID()}/organizations`, 404)).toMatchObject(
      { code: "NOT_FOUND" },
    );
    expect(await membersSeenBy(colleague.headers, organization.id)).toEqual(
      expect.arrayContaining([
        { email: owner.email, role: "owner" },
        { email: colleague.email, role: "admin" },
      ]),
    );
    expect(
      await adminJson("POST", base, 409, { body: { userId: colleague.id, role: "member" } }),
    ).toMatchObject({ code: "CONFLICT" });
    expect(
      await adminJson("POST", base, 404, { body: { email: "nobody@svc.test", role: "member" } }),
    ).toMatchObject({ code: "NOT_FOUND" });
    expect(
      await adminJson("POST", base, 400, { body: { userId: colleague.id, role: "janitor" } }),
    ).toMatchObject({
      errors: [
        { path: "body.role", message: 'unknown role "janitor" (known: owner, admin, member)' },
      ],
    });

    const { members } = await adminJson<{ members: Member[] }>("GET", base, 200);
    const ownerMember = members.find((entry) => entry.user.id === owner.id)!;
    expect(
      await adminJson("POST", `${base}/${ownerMember.id}/role`, 409, { body: { role: "admin" } }),
    ).toMatchObject({
      detail:
        "Cannot take the role from the organization's last owner; make another member owner first.",
    });
    expect(await adminJson("DELETE", `${base}/${ownerMember.id}`, 409)).toMatchObject({
      code: "CONFLICT",
    });
    const { member: promoted } = await adminJson<{ member: Member }>(
      "POST",
      `${base}/${member.id}/role`,
      200,
      { body: { role: ["admin", "owner"] } },
    );
    expect(promoted.role).toBe("admin,owner");
    await adminJson("POST", `${base}/${ownerMember.id}/role`, 200, { body: { role: "member" } });
    expect(await membersSeenBy(colleague.headers, organization.id)).toEqual(
      expect.arrayContaining([
        { email: owner.email, role: "member" },
        { email: colleague.email, role: "admin,owner" },
      ]),
    );
    expect(await auditOf("member.role", ownerMember.id)).toMatchObject([
      { outcome: "ok", detail: "role: owner → member" },
      { outcome: "error" },
    ]);
  });

  it("removes a member: better-auth no longer lists them and their session leaves the organization", async () => {
    const owner = await person("remove-owner");
    const leaver = await person("remove-leaver");
    const organization = await createOrganization(owner.id);
    const base = `organizations/${organization.id}/members`;
    const { member } = await adminJson<{ member: Member }>("POST", base, 201, {
      body: { userId: leaver.id, role: "member" },
    });
    await adminAuth.api.setActiveOrganization({
      body: { organizationId: organization.id },
      headers: leaver.headers,
    });
    expect(await adminJson("DELETE", `${base}/${member.id}`, 200)).toEqual({ deleted: true });
    expect(await membersSeenBy(owner.headers, organization.id)).toEqual([
      { email: owner.email, role: "owner" },
    ]);
    const session = await adminAuth.api.getSession({ headers: leaver.headers });
    expect(session?.session).toMatchObject({ activeOrganizationId: null });
    await adminJson("DELETE", `${base}/${member.id}`, 404);
  });
});

describe("invitations", () => {
  it("invites by email through the app's sendInvitationEmail; the invitee accepts with better-auth", async () => {
    const owner = await person("invite-owner");
    const organization = await createOrganization(owner.id);
    const base = `organizations/${organization.id}/invitations`;
    const email = freshEmail("invitee");
    const sentBefore = invitationOutbox.length;
    const { invitation, emailed } = await adminJson<{ invitation: Invitation; emailed: boolean }>(
      "POST",
      base,
      201,
      { body: { email, role: "admin" } },
    );
    expect(emailed).toBe(true);
    expect(invitation).toMatchObject({
      email,
      role: "admin",
      status: "pending",
      inviter: { id: owner.id, email: owner.email },
    });
    const hours = (Date.parse(invitation.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(47.9);
    expect(hours).toBeLessThanOrEqual(48);
    expect(invitationOutbox.slice(sentBefore)).toEqual([
      {
        id: invitation.id,
        email,
        role: "admin",
        organizationSlug: organization.slug,
        inviterEmail: owner.email,
        expiresAt: invitation.expiresAt,
      },
    ]);
    expect(await adminJson("POST", base, 409, { body: { email, role: "member" } })).toMatchObject({
      detail: `${email} already has a pending invitation to this organization; resend it instead.`,
    });
    expect(
      await adminJson("POST", base, 409, { body: { email: owner.email, role: "member" } }),
    ).toMatchObject({ detail: `${owner.email} is already a member of this organization.` });

    const invitee = await signUp(email, PASSWORD);
    const { token } = await signIn(email, PASSWORD);
    const accepted = await adminAuth.api.acceptInvitation({
      body: { invitationId: invitation.id },
      headers: new Headers({ authorization: `Bearer ${token}` }),
    });
    expect(accepted?.member).toMatchObject({ userId: invitee, role: "admin" });
    const { invitations } = await adminJson<{ invitations: Invitation[] }>("GET", base, 200);
    expect(invitations).toMatchObject([{ id: invitation.id, status: "accepted" }]);
    expect(await adminJson("DELETE", `${base}/${invitation.id}`, 409)).toMatchObject({
      detail: "Cannot cancel an invitation that is accepted; only pending invitations can be.",
    });
  });

  it("resends with a renewed expiry, cancels so better-auth refuses the link", async () => {
    const owner = await person("resend-owner");
    const organization = await createOrganization(owner.id);
    const base = `organizations/${organization.id}/invitations`;
    const email = freshEmail("resend-invitee");
    const { invitation } = await adminJson<{ invitation: Invitation }>("POST", base, 201, {
      body: { email, role: "member" },
    });
    await env.ADMIN_DB.prepare(`UPDATE "invitation" SET "expiresAt" = ? WHERE "id" = ?`)
      .bind(new Date(Date.now() - 60_000).toISOString(), invitation.id)
      .run();
    const sentBefore = invitationOutbox.length;
    const { invitation: resent } = await adminJson<{ invitation: Invitation }>(
      "POST",
      `${base}/${invitation.id}/resend`,
      200,
    );
    expect(Date.parse(resent.expiresAt)).toBeGreaterThan(Date.now() + 47 * 3_600_000);
    expect(invitationOutbox.slice(sentBefore)).toMatchObject([{ id: invitation.id, email }]);

    const { invitation: canceled } = await adminJson<{ invitation: Invitation }>(
      "DELETE",
      `${base}/${invitation.id}`,
      200,
    );
    expect(canceled.status).toBe("canceled");
    await signUp(email, PASSWORD);
    const { token } = await signIn(email, PASSWORD);
    await expect(
      adminAuth.api.acceptInvitation({
        body: { invitationId: invitation.id },
        headers: new Headers({ authorization: `Bearer ${token}` }),
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
    await adminJson("POST", `${base}/${invitation.id}/resend`, 409);
    expect(await auditOf("invitation.cancel", invitation.id)).toMatchObject([
      { outcome: "ok", detail: `canceled the invitation of ${email}` },
    ]);
  });
});
