/**
 * The JSON bodies of the admin API's writes. Unknown fields are refused;
 * the handlers check what a type cannot say (lengths, roles, dates).
 */
import { type Infer, v } from "@svc/server/routes/contract";
import { signInLinkKind } from "./shapes.ts";

const roles = v.union(v.string(), v.array(v.string())).describe("A role, or several.");

/** `POST users`. */
export const newUser = v.object({
  email: v.string(),
  name: v.string(),
  password: v.optional(v.string()),
  role: v.optional(roles),
  emailVerified: v.optional(v.boolean()),
  signInLink: v.optional(signInLinkKind),
});

/** `PATCH users/:id`: any of `capabilities.userFields` (the handler checks them by name). */
export const userChanges = v.record(v.any());

/** `POST users/:id/role` and `POST organizations/:id/members/:memberId/role`. */
export const roleChange = v.object({ role: roles });

/** `POST users/:id/ban`. */
export const banBody = v.object({
  reason: v.optional(v.string()),
  expiresAt: v.optional(v.string().describe("ISO-8601, in the future; absent: permanent.")),
});

/** A body with no fields (an action whose path says everything). */
export const noFields = v.object({});

/** `POST users/:id/password`. */
export const passwordBody = v.object({ password: v.string() });

/** `POST users/:id/sign-in-link`. */
export const signInLinkBody = v.object({ kind: signInLinkKind });

/** `POST users/:id/impersonate`. */
export const impersonateBody = v.object({
  reason: v.optional(v.string()),
  durationSeconds: v.optional(
    v
      .number()
      .describe(
        "From the configured minimum (default 60) to the configured maximum (default 3600).",
      ),
  ),
});

/** `POST users/:id/impersonation-link`. */
export const impersonationLinkBody = v.object({
  reason: v.optional(v.string()),
  durationSeconds: v.optional(v.number()),
  redirectTo: v.optional(v.string().describe("A path on the app's origin.")),
});

/**
 * The editable fields of an organization, as `POST organizations` and
 * `PATCH organizations/:id` take them (`logo` and `metadata` may be `null`
 * to clear them).
 */
export const ORGANIZATION_FIELDS_BODY = {
  name: v.optional(v.string()),
  slug: v.optional(v.string()),
  logo: v.optional(v.union(v.string(), v.null())),
  metadata: v.optional(v.union(v.record(v.any()), v.null())),
};

/** `POST organizations`. */
export const newOrganization = v.object({ ...ORGANIZATION_FIELDS_BODY, ownerId: v.string() });

/** `PATCH organizations/:id`. */
export const organizationChanges = v.object(ORGANIZATION_FIELDS_BODY);

/** @see {@link organizationChanges} */
export type OrganizationChanges = Infer<typeof organizationChanges>;

/** `POST organizations/:id/members`: an existing user by id or email. */
export const newMember = v.object({
  userId: v.optional(v.string()),
  email: v.optional(v.string()),
  role: roles,
});

/** `POST organizations/:id/invitations`. */
export const newInvitation = v.object({
  email: v.string(),
  role: roles,
  inviterId: v.optional(v.string()),
});
