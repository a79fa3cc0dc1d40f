import type { BetterAuthPlugin } from "better-auth";
import { SVC_PLUGIN_IDS } from "../svc-plugin-ids.ts";
import type { AuthAdminFeatures } from "./options.ts";

/**
 * Which dashboard surfaces apply (`GET capabilities`), derived from the
 * enabled better-auth plugins and `options.features`.
 *
 * @see ../../../../docs/admin-api.md "Shapes"
 */
export interface Capabilities {
  /** admin plugin: role, ban/unban, set password, impersonate, create, delete. */
  userActions: boolean;
  /** organization plugin: organizations, members, invitations. */
  organizations: boolean;
  /** twoFactor plugin: "Disable two-factor". */
  twoFactor: boolean;
  /** passkey plugin: list / revoke passkeys. */
  passkeys: boolean;
  /** Always: linked accounts (list, unlink). */
  linkedAccounts: true;
  /** Always: sessions (list, revoke). */
  sessions: true;
  /** username plugin: searchable, shown in user fields. */
  username: boolean;
  /** Roles an operator may assign (empty without the admin plugin). */
  roles: string[];
  /** Ids of the enabled better-auth plugins (svc's own plugins left out). */
  plugins: string[];
}

/** The better-auth plugin id behind each feature. */
const PLUGIN_IDS: Record<keyof AuthAdminFeatures, string> = {
  admin: "admin",
  organization: "organization",
  twoFactor: "two-factor",
  passkey: "passkey",
  username: "username",
};

/**
 * The capabilities of an auth with these plugins, with `features` forcing
 * surfaces off.
 *
 * @example
 * ```ts
 * capabilitiesOf([admin(), organization()], { organization: false }, ["user", "admin"]).organizations; // false
 * ```
 */
export function capabilitiesOf(
  plugins: readonly BetterAuthPlugin[],
  features: Required<AuthAdminFeatures>,
  roles: string[],
): Capabilities {
  const ids = plugins.map((plugin) => plugin.id).filter((id) => !SVC_PLUGIN_IDS.has(id));
  const on = (feature: keyof AuthAdminFeatures) =>
    ids.includes(PLUGIN_IDS[feature]) && features[feature];
  const userActions = on("admin");
  return {
    userActions,
    organizations: on("organization"),
    twoFactor: on("twoFactor"),
    passkeys: on("passkey"),
    linkedAccounts: true,
    sessions: true,
    username: on("username"),
    roles: userActions ? roles : [],
    plugins: ids,
  };
}
