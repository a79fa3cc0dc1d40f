/**
 * `@svc/auth/middleware`: procedure middleware over the auth instance.
 *
 * @packageDocumentation
 */

export type { ServiceAccountOptions } from "../service-account.ts";
export {
  type AuthApi,
  type AuthApiContext,
  type AuthApiSource,
  type WithAuthPluginsOptions,
  withAuthPlugins,
} from "./with-auth-plugins.ts";
