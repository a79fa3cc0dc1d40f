import type { BetterAuthPlugin } from "better-auth";
import { SVC_PLUGIN_IDS } from "../svc-plugin-ids.ts";
import {
  AUDIT_ACTIONS,
  type Capabilities,
  type EditableUserField,
  type SignInLinkKind,
} from "./contract/index.ts";
import type { AuthAdminFeatures } from "./options.ts";

export type { Capabilities } from "./contract/index.ts";

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
 * surfaces off, the password length its email + password sign-in allows and
 * the sign-in links it can email (`signInLinksOf`).
 *
 * @example
 * ```ts
 * capabilitiesOf([admin(), organization()], { organization: false }, ["user", "admin"], { min: 8, max: 128 }).organizations; // false
 * ```
 */
export function capabilitiesOf(
  plugins: readonly BetterAuthPlugin[],
  features: Required<AuthAdminFeatures>,
  roles: string[],
  passwordLength: Capabilities["passwordLength"],
  userFields: EditableUserField[] = [],
  signInLinks: SignInLinkKind[] = [],
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
    auditActions: [...AUDIT_ACTIONS],
    passwordLength,
    userFields: userActions ? userFields : [],
    signInLinks,
  };
}

/**
 * Whether a capability a route `requires` is on: a route whose capability is
 * off does not exist (404), and is left out of the OpenAPI document.
 *
 * @example
 * ```ts
 * isCapabilityOn(environment.capabilities, "passkeys"); // false without the passkey plugin
 * ```
 */
export function isCapabilityOn(capabilities: Capabilities, name: string): boolean {
  const { userActions, organizations, twoFactor, passkeys } = capabilities;
  const flags: Readonly<Record<string, boolean>> = {
    userActions,
    organizations,
    twoFactor,
    passkeys,
  };
  return flags[name] === true;
}
