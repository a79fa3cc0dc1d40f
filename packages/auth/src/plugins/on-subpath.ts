import { SvcAuthError } from "../errors.ts";

/**
 * The plugins whose better-auth packages are optional peers, with the subpath that exports them and
 * the package version svc's tests ran with (docs/auth.md "Supported versions" lists the same).
 */
export const SUBPATH_PLUGINS = {
  passkey: { subpath: "@svc/auth/plugins/passkey", pkg: "@better-auth/passkey", version: "1.7.6" },
  mcp: { subpath: "@svc/auth/plugins/mcp", pkg: "@better-auth/mcp", version: "1.7.5" },
  requireMcpAuth: { subpath: "@svc/auth/plugins/mcp", pkg: "@better-auth/mcp", version: "1.7.5" },
  mcpHandler: { subpath: "@svc/auth/plugins/mcp", pkg: "@better-auth/mcp", version: "1.7.5" },
} as const;

/**
 * A stand-in exported from `@svc/auth/plugins` under a plugin's name whose package is an optional
 * peer: importing `@better-auth/passkey` there would make every app's bundle fail when the package
 * is absent, so the name answers with what to install and where to import it from instead.
 *
 * @example
 * ```ts
 * export const passkey = onSubpath("passkey");
 * passkey(); // throws SvcAuthError AUTH_PLUGIN_SUBPATH: "… npm install @better-auth/passkey@1.7.6 …"
 * ```
 */
export function onSubpath(name: keyof typeof SUBPATH_PLUGINS): (...args: unknown[]) => never {
  const { subpath, pkg, version } = SUBPATH_PLUGINS[name];
  return () => {
    throw new SvcAuthError(
      "AUTH_PLUGIN_SUBPATH",
      `${name}() is exported from "${subpath}", not "@svc/auth/plugins": run \`npm install ${pkg}@${version}\` (with the overrides in docs/auth.md, "Supported versions"), then \`import { ${name} } from "${subpath}"\`.`,
    );
  };
}
