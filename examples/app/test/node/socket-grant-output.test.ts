import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appForThisFile } from "./harness.ts";
import { rawUpgrade } from "./raw-http.ts";

/**
 * Issue 53, point 2: the worker handed a socket's grant (identity, and the
 * upgrade's `cookie` and `authorization` headers) to the shard as raw JSON in
 * a header; a user named "José Müller", or a `theme=café` cookie, made
 * workerd warn about the non-ASCII header value and print all of it, session
 * token included, to the dev server's output. Opens sockets as such users,
 * with such cookies and with an API key, then greps everything `wrangler
 * dev` printed for each credential.
 */

const ADMIN_TOKEN = "socket-grant-admin-token-0123456789abcdef";
const app = appForThisFile({ vars: { SVC_ADMIN_TOKEN: ADMIN_TOKEN } });
const sockets: Socket[] = [];
const credentials: Record<string, string> = {};

afterAll(() => {
  for (const socket of sockets) socket.destroy();
});

async function signUp(name: string): Promise<{ token: string; cookie: string; id: string }> {
  const response = await fetch(`${app.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify({
      email: `${randomUUID()}@example.com`,
      password: "a long password",
      name,
    }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { user: { id: string } };
  const cookie = response.headers
    .getSetCookie()
    .map((entry) => entry.split(";")[0])
    .join("; ");
  return { token: response.headers.get("set-auth-token") ?? "", cookie, id: body.user.id };
}

/** Opens a socket over raw HTTP from an address of its own; answers the status. */
async function upgrade(headers: Record<string, string>): Promise<number> {
  const address = `2001:db8:53:${randomUUID().slice(0, 4)}::2`;
  const { status, socket } = await rawUpgrade(app.url, {
    origin: app.url,
    "cf-connecting-ip": address,
    ...headers,
  });
  if (socket) sockets.push(socket);
  return status;
}

beforeAll(async () => {
  const jose = await signUp("José Müller");
  const zoe = await signUp("Zoë 山田");
  credentials.joseToken = jose.token;
  credentials.joseCookie = jose.cookie.split("=").slice(1).join("=");
  credentials.zoeToken = zoe.token;
  const created = await fetch(`${app.url}/_svc/admin/auth/api-keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ ownerUserId: jose.id, name: "clé", scopes: ["*"] }),
  });
  expect(created.status).toBe(201);
  credentials.apiKey = ((await created.json()) as { key: string }).key;
}, 90_000);

describe("socket credentials never reach the dev server's output (issue 53, point 2)", () => {
  it("opens sockets as non-ASCII users, with non-ASCII cookies and keys, and prints none", async () => {
    const bearerProtocol = (token: string) =>
      `svc.v1, svc.bearer.${Buffer.from(token).toString("base64url")}`;
    const opens: Record<string, string>[] = [
      { authorization: `Bearer ${credentials.joseToken}` },
      { "sec-websocket-protocol": bearerProtocol(credentials.zoeToken ?? "") },
      { cookie: `theme=café; better-auth.session_token=${credentials.joseCookie}` },
      { cookie: "theme=café", authorization: `Bearer ${credentials.zoeToken}` },
      { cookie: "theme=café", "x-api-key": credentials.apiKey ?? "" },
    ];
    for (const headers of opens) expect(await upgrade(headers)).toBe(101);
    // workerd prints its header warnings as the request passes; give the log a moment to flush.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const output = app.output();
    expect(output).toContain("Ready on");
    for (const [name, secret] of Object.entries(credentials)) {
      expect(secret.length, name).toBeGreaterThan(16);
      expect(output.includes(secret), `${name} in the dev server's output`).toBe(false);
      expect(output.includes(encodeURIComponent(secret)), name).toBe(false);
    }
    expect(output).not.toContain("x-svc-internal-socket-grant");
  });
});
