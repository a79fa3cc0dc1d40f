import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { adminInit, type RunningApp } from "./example-app.ts";

/** A user created through better-auth's real sign-up endpoint, with its first session. */
export interface SeededUser {
  id: string;
  email: string;
  name: string;
  password: string;
  /** `Cookie` header value of the sign-up session. */
  cookie: string;
}

const PASSWORD = "correct-horse-battery-staple";

/** An email no other test uses, so tests never depend on each other or on order. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

/**
 * The session-token cookie alone: better-auth may also set a session-data
 * cache cookie, which would keep a revoked session looking alive for minutes.
 */
function cookieOf(response: Response): string {
  const token = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0] ?? "")
    .find((pair) => pair.split("=")[0]?.endsWith("session_token"));
  if (token === undefined) throw new Error("better-auth set no session_token cookie");
  return token;
}

/**
 * A caller address of its own for each seeding call (IPv6 documentation
 * range). The app limits sign-ups and sign-ins per `cf-connecting-ip`, and
 * every browser test file shares one app: from one address the files
 * together would meet the limit a script is meant to meet.
 */
function seedAddress(): string {
  const [high = "0", low = "0"] = randomUUID().split("-");
  return `2001:db8:${high.slice(0, 4)}:${high.slice(4)}::${low}`;
}

async function authPost(
  app: RunningApp,
  path: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<Response> {
  const response = await fetch(`${app.url}/api/auth/${path}`, {
    method: "POST",
    // better-auth checks Origin on state-changing calls, as a browser would send it.
    headers: {
      "content-type": "application/json",
      origin: app.url,
      "cf-connecting-ip": seedAddress(),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`POST /api/auth/${path} answered ${response.status}: ${await response.text()}`);
  }
  return response;
}

/** Signs a user up (`POST /api/auth/sign-up/email`). */
export async function signUp(
  app: RunningApp,
  options: { label: string; name?: string; email?: string; userAgent?: string },
): Promise<SeededUser> {
  const email = options.email ?? uniqueEmail(options.label);
  const name = options.name ?? `Test ${options.label}`;
  const response = await authPost(
    app,
    "sign-up/email",
    { email, name, password: PASSWORD },
    { "user-agent": options.userAgent ?? "seed-script/1.0 (X11; Linux x86_64)" },
  );
  const body = (await response.json()) as { user: { id: string } };
  return { id: body.user.id, email, name, password: PASSWORD, cookie: cookieOf(response) };
}

/** Opens one more session for a user (`POST /api/auth/sign-in/email`) from another "device". */
export async function signIn(
  app: RunningApp,
  user: SeededUser,
  userAgent: string,
): Promise<string> {
  const response = await authPost(
    app,
    "sign-in/email",
    { email: user.email, password: user.password },
    { "user-agent": userAgent },
  );
  return cookieOf(response);
}

/** Whether a session cookie still signs its user in (`GET /api/auth/get-session`). */
export async function sessionIsLive(app: RunningApp, cookie: string): Promise<boolean> {
  const response = await fetch(`${app.url}/api/auth/get-session`, { headers: { cookie } });
  if (!response.ok) return false;
  const body: unknown = await response.json();
  return body !== null && typeof body === "object" && "session" in body;
}

/** An organization made by `owner`, with one accepted member and one pending invitation. */
export interface SeededOrganization {
  id: string;
  name: string;
  owner: SeededUser;
  member: SeededUser;
  pendingEmail: string;
}

/** Seeds an organization through the organization plugin's own endpoints. */
export async function seedOrganization(
  app: RunningApp,
  label: string,
): Promise<SeededOrganization> {
  const owner = await signUp(app, { label: `${label}-owner` });
  const member = await signUp(app, { label: `${label}-member` });
  const slug = `${label}-${randomUUID().slice(0, 8)}`;
  const name = `Org ${slug}`;
  const created = await authPost(
    app,
    "organization/create",
    { name, slug },
    { cookie: owner.cookie },
  );
  const { id } = (await created.json()) as { id: string };
  const invite = async (email: string) => {
    const response = await authPost(
      app,
      "organization/invite-member",
      { email, role: "member", organizationId: id },
      { cookie: owner.cookie },
    );
    return ((await response.json()) as { id: string }).id;
  };
  const invitationId = await invite(member.email);
  await authPost(
    app,
    "organization/accept-invitation",
    { invitationId },
    { cookie: member.cookie },
  );
  const pendingEmail = uniqueEmail(`${label}-invited`);
  await invite(pendingEmail);
  return { id, name, owner, member, pendingEmail };
}

/**
 * A new room shard (`<label>-<random>`) with `count` messages sent by a new
 * user, once the shard registry lists it (the Data, Migrations and Backups
 * pages read the registry).
 *
 * @example const shard = await roomWithMessages(app, 2, "room-doomed");
 */
export async function roomWithMessages(
  app: RunningApp,
  count: number,
  label: string,
): Promise<string> {
  const shard = `${label}-${randomUUID().slice(0, 8)}`;
  const ann = await signUp(app, { label });
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${app.url}/_svc/rpc?shardKey=${shard}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: ann.cookie, origin: app.url },
      body: JSON.stringify({ path: "messages:send", args: { body: `m${i}`, channel: "general" } }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
  await until(
    async () =>
      (await fetch(`${app.url}/_svc/admin/data/shards/${shard}`, adminInit())).status === 200,
    `the registry lists ${shard}`,
  );
  return shard;
}

/**
 * Asks `check` every 250 ms until it answers true, failing after 30 s with
 * what was awaited; unlike `expect.poll`, it also works in `beforeAll`.
 *
 * @example await until(async () => (await fetch(url)).ok, "the shard is listed");
 */
export async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
