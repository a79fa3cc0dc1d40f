import { describe, expect, it } from "vitest";
import { createAuth } from "../src/index.ts";
import * as mcpPlugins from "../src/plugins/mcp.ts";
import * as passkeyPlugins from "../src/plugins/passkey.ts";
import * as plugins from "../src/plugins.ts";
import { TEST_ORIGIN, TEST_SECRET } from "./fixture/constants.ts";

const noop = async () => {};

/** Each plugin factory of the spec's table, called with the options it needs, and its id. */
const PLUGINS = [
  { name: "passkey", make: () => passkeyPlugins.passkey(), id: "passkey" },
  { name: "twoFactor", make: () => plugins.twoFactor(), id: "two-factor" },
  { name: "magicLink", make: () => plugins.magicLink({ sendMagicLink: noop }), id: "magic-link" },
  {
    name: "emailOTP",
    make: () => plugins.emailOTP({ sendVerificationOTP: noop }),
    id: "email-otp",
  },
  { name: "phoneNumber", make: () => plugins.phoneNumber({ sendOTP: noop }), id: "phone-number" },
  { name: "username", make: () => plugins.username(), id: "username" },
  { name: "anonymous", make: () => plugins.anonymous(), id: "anonymous" },
  {
    name: "siwe",
    make: () =>
      plugins.siwe({
        domain: "svc.test",
        getNonce: async () => "nonce",
        verifyMessage: async () => true,
      }),
    id: "siwe",
  },
  { name: "admin", make: () => plugins.admin({ defaultRole: "user" }), id: "admin" },
  {
    name: "organization",
    make: () => plugins.organization({ allowUserToCreateOrganization: true }),
    id: "organization",
  },
  { name: "multiSession", make: () => plugins.multiSession(), id: "multi-session" },
  {
    name: "customSession",
    make: () => plugins.customSession(async (session) => ({ ...session, plan: "free" })),
    id: "custom-session",
  },
  { name: "bearer", make: () => plugins.bearer(), id: "bearer" },
  { name: "jwt", make: () => plugins.jwt(), id: "jwt" },
  {
    name: "oauthProvider",
    make: () => plugins.oauthProvider({ loginPage: "/login", consentPage: "/consent" }),
    id: "oauth-provider",
    needs: [plugins.jwt()],
  },
  { name: "genericOAuth", make: () => plugins.genericOAuth({ config: [] }), id: "generic-oauth" },
  { name: "oAuthProxy", make: () => plugins.oAuthProxy(), id: "oauth-proxy" },
  { name: "oneTimeToken", make: () => plugins.oneTimeToken(), id: "one-time-token" },
  {
    name: "deviceAuthorization",
    make: () => plugins.deviceAuthorization(),
    id: "device-authorization",
  },
  {
    name: "mcp",
    make: () =>
      mcpPlugins.mcp({
        loginPage: "/login",
        consentPage: "/consent",
        resource: "http://localhost/mcp",
      }),
    id: "oauth-provider",
    needs: [plugins.jwt()],
  },
  {
    name: "captcha",
    make: () => plugins.captcha({ provider: "cloudflare-turnstile", secretKey: "secret" }),
    id: "captcha",
  },
  { name: "pwnedPasswords", make: () => plugins.pwnedPasswords(), id: "have-i-been-pwned" },
];

describe("@svc/auth/plugins", () => {
  it.each(PLUGINS)("$name builds a plugin that better-auth initialises", async (entry) => {
    const plugin = entry.make();
    expect(plugin.id).toBe(entry.id);
    const auth = createAuth({
      secret: TEST_SECRET,
      baseURL: TEST_ORIGIN,
      plugins: [...(entry.needs ?? []), plugin],
    });
    const context = await auth.$context;
    expect(context.options.plugins?.map((loaded) => loaded.id)).toContain(entry.id);
  });

  it("createAccessControl builds roles that admin() and organization() accept", async () => {
    const ac = plugins.createAccessControl({ project: ["create", "delete"] });
    const owner = ac.newRole({ project: ["create", "delete"] });
    expect(owner.authorize({ project: ["delete"] }).success).toBe(true);
    expect(ac.newRole({ project: ["create"] }).authorize({ project: ["delete"] }).success).toBe(
      false,
    );
    const auth = createAuth({
      secret: TEST_SECRET,
      baseURL: TEST_ORIGIN,
      plugins: [
        plugins.admin({ ac, roles: { owner } }),
        plugins.organization({ ac, roles: { owner } }),
      ],
    });
    await expect(auth.$context).resolves.toBeTruthy();
  });

  it("requireMcpAuth and mcpHandler refuse a request without an access token", async () => {
    const origin = "http://localhost:8787";
    const resource = `${origin}/mcp`;
    const auth = createAuth({
      secret: TEST_SECRET,
      baseURL: origin,
      plugins: [
        plugins.jwt(),
        mcpPlugins.mcp({ loginPage: "/login", consentPage: "/consent", resource }),
      ],
    });
    const reached = () => new Response("tool output");
    const viaRequire = mcpPlugins.requireMcpAuth(auth, reached, { resource });
    const viaHandler = mcpPlugins.mcpHandler(
      { issuer: origin, audience: resource, jwksUrl: `${origin}/api/auth/jwks` },
      reached,
    );
    for (const protect of [viaRequire, viaHandler]) {
      const response = await protect(new Request(resource, { method: "POST" }));
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
    }
  });

  it.each([
    ["passkey", plugins.passkey, "@svc/auth/plugins/passkey", "@better-auth/passkey@1.7.6"],
    ["mcp", plugins.mcp, "@svc/auth/plugins/mcp", "@better-auth/mcp@1.7.5"],
    ["requireMcpAuth", plugins.requireMcpAuth, "@svc/auth/plugins/mcp", "@better-auth/mcp@1.7.5"],
    ["mcpHandler", plugins.mcpHandler, "@svc/auth/plugins/mcp", "@better-auth/mcp@1.7.5"],
  ] as const)(
    "%s from @svc/auth/plugins throws AUTH_PLUGIN_SUBPATH naming its subpath and package",
    (name, stub, subpath, pkg) => {
      const call = () => stub();
      expect(call).toThrowError(expect.objectContaining({ code: "AUTH_PLUGIN_SUBPATH" }));
      expect(call).toThrowError(`npm install ${pkg}`);
      expect(call).toThrowError(`import { ${name} } from "${subpath}"`);
    },
  );
});
