import { beforeAll, describe, expect, it } from "vitest";
import { appForThisFile } from "./harness.ts";
import { openLocalD1 } from "./state-db.ts";

const ADMIN_TOKEN = "secrets-test-admin-token-0123456789abcdef";
const PASSWORD = "correct horse battery staple";

const app = appForThisFile({ vars: { SVC_ADMIN_TOKEN: ADMIN_TOKEN } });
const secrets: Record<string, string> = {};

async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url, ...headers },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  const signUp = await post("/api/auth/sign-up/email", {
    email: "secret@example.com",
    password: PASSWORD,
    name: "Secret Keeper",
  });
  secrets.sessionToken = signUp.headers.get("set-auth-token") ?? "";
  const bearer = { authorization: `Bearer ${secrets.sessionToken}` };
  const twoFactor = (await (
    await post("/api/auth/two-factor/enable", { password: PASSWORD }, bearer)
  ).json()) as {
    totpURI: string;
    backupCodes: string[];
  };
  secrets.totpSecret = new URL(twoFactor.totpURI).searchParams.get("secret") ?? "";
  secrets.backupCode = twoFactor.backupCodes[0] ?? "";
  await post("/_svc/rpc", { path: "messages:send", args: { body: "a message" } }, bearer);
  const db = await openLocalD1(app.stateDir);
  const row = db.prepare(`select password from account where providerId = 'credential'`).get() as {
    password: string;
  };
  secrets.passwordHash = row.password;
  secrets.password = PASSWORD;
  secrets.adminToken = ADMIN_TOKEN;
  db.close();
}, 90_000);

describe("secrets never leave through svc's surfaces", () => {
  it("seeded every secret it scans for", () => {
    for (const [name, value] of Object.entries(secrets))
      expect(value.length, name).toBeGreaterThan(8);
  });

  it("appear in no response of RPC, REST, streams, errors, the OpenAPI document or the dashboard", async () => {
    const bearer = { authorization: `Bearer ${secrets.sessionToken}` };
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const rpc = (path: string, args: unknown = {}) => post("/_svc/rpc", { path, args }, bearer);
    const responses: [string, Response][] = [
      ["rpc whoami", await rpc("account:whoami")],
      ["rpc list", await rpc("messages:list")],
      ["rpc notices", await rpc("messages:notices")],
      ["rpc wordCount", await rpc("tools:wordCount")],
      ["rpc replay stream", await rpc("messages:replay")],
      ["rpc validation error", await rpc("messages:send", { body: 1 })],
      ["rpc unknown", await rpc("nope:nothing")],
      ["rest whoami", await fetch(`${app.url}/_svc/rest/account/whoami`, { headers: bearer })],
      ["rest list", await fetch(`${app.url}/_svc/rest/messages/list`, { headers: bearer })],
      ["rest send error", await post("/_svc/rest/messages/send", { body: "" }, bearer)],
      ["rest 404", await fetch(`${app.url}/_svc/rest/messages/notice`, { headers: bearer })],
      ["openapi", await fetch(`${app.url}/_svc/admin/openapi`, { headers: admin })],
      ["admin 401", await fetch(`${app.url}/_svc/admin/auth/users`, { headers: bearer })],
      ["dashboard", await fetch(`${app.url}/_svc/dashboard/`)],
      ["app fallback", await fetch(`${app.url}/`, { headers: bearer })],
    ];
    const leaks: string[] = [];
    for (const [surface, response] of responses) {
      const text = `${JSON.stringify([...response.headers])}\n${await response.text()}`;
      for (const [name, secret] of Object.entries(secrets))
        if (text.includes(secret)) leaks.push(`${surface} leaks ${name}`);
    }
    expect(leaks).toEqual([]);
  });

  it("gives procedures the identity without the session token", async () => {
    const response = await fetch(`${app.url}/_svc/rest/account/whoami`, {
      headers: { authorization: `Bearer ${secrets.sessionToken}` },
    });
    const identity = (await response.json()) as {
      userId: string;
      user: { email: string };
      session: Record<string, unknown>;
    };
    expect(identity.user.email).toBe("secret@example.com");
    expect(identity.session).not.toHaveProperty("token");
  });
});
