/**
 * The shapes of the admin API, declared once in `@svc/auth` (the server
 * builds its answers as these types) and imported here as types only, so the
 * browser build never contains server code. Local names are the dashboard's.
 *
 * @see ../../../auth/src/admin/contract.ts
 */
export type {
  AdminAccount as Account,
  AdminInvitation as Invitation,
  AdminMember as Member,
  AdminOrganization as Organization,
  AdminPasskey as Passkey,
  AdminSession as Session,
  AdminUser as User,
  AuditEntry,
  Capabilities,
  Impersonation,
  OrganizationPage,
  UserDetail,
  UserPage,
  UserQuery,
  UserSort,
} from "@svc/auth/admin-contract";
