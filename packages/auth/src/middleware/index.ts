/**
 * `@svc/auth/middleware`: procedure middleware over the auth instance.
 *
 * @packageDocumentation
 */
export {
  type AuthApi,
  type AuthApiContext,
  withAuthPlugins,
} from "./with-auth-plugins.ts";
