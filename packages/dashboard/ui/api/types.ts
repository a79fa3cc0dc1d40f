/**
 * The shapes of the admin API, declared once in `@svc/auth` (the server
 * builds its answers as these types) and imported here as types only, so the
 * browser build never contains server code. Local names are the dashboard's.
 *
 * @see ../../../auth/src/admin/contract/index.ts
 */
export type {
  AdminAccount as Account,
  AdminApiKey as ApiKey,
  AdminImportReport as ImportReport,
  AdminInvitation as Invitation,
  AdminMember as Member,
  AdminOrganization as Organization,
  AdminOverview as Overview,
  AdminPasskey as Passkey,
  AdminSession as Session,
  AdminUser as User,
  AuditEntry,
  Capabilities,
  CreatedUser,
  EditableUserField,
  ExportQuery,
  Impersonation,
  ImpersonationLink,
  OrganizationChanges,
  OrganizationPage,
  SignInLinkKind,
  SignInLinkOutcome,
  UserDetail,
  UserPage,
  UserQuery,
  UserSort,
} from "@svc/auth/admin-contract";
