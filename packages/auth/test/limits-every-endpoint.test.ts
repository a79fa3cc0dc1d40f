import { beforeAll, describe, expect, it } from "vitest";
import {
  AUTH_ACCOUNT_SOURCES,
  createAuthRateLimit,
  DEFAULT_AUTH_LIMITS,
  ensureMigrated,
  handleAuthRequest,
} from "../src/index.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";
import { everyPluginAuth, everyPluginEndpoints } from "./fixture/every-plugin.ts";

/**
 * Issue 26 findings 1 and 2 over every limited endpoint of every plugin
 * `@svc/auth/plugins` re-exports: the per-account limit of each path counts
 * the field that path uses, in JSON, form and multipart alike, and ignores
 * decoys of every other identifier; two-factor paths count the user behind
 * the challenge cookie or the session.
 */

const rateLimit = createAuthRateLimit({ store: "RATE_LIMITER" });
const run = crypto.randomUUID().slice(0, 8);
let ipSerial = 0;
// Each call from a /64 of its own: per-IP limits key IPv6 callers by their /64.
const freshIp = () => `2001:db8:${run.slice(0, 4)}:${(++ipSerial).toString(16)}::1`;

type Encoding = "json" | "form" | "multipart";

function encode(fields: Record<string, string>, encoding: Encoding): RequestInit {
  if (encoding === "json") {
    return { body: JSON.stringify(fields), headers: { "content-type": "application/json" } };
  }
  if (encoding === "form") {
    return {
      body: new URLSearchParams(fields).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    };
  }
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return { body: form };
}

async function post(
  path: string,
  fields: Record<string, string>,
  encoding: Encoding,
  headers: Record<string, string> = {},
): Promise<Response> {
  const init = encode(fields, encoding);
  const request = new Request(`${TEST_ORIGIN}/api/auth${path}`, {
    method: "POST",
    body: init.body ?? null,
    headers: {
      ...(init.headers as Record<string, string> | undefined),
      origin: TEST_ORIGIN,
      "cf-connecting-ip": freshIp(),
      ...headers,
    },
  });
  const response = await handleAuthRequest(everyPluginAuth, request, { rateLimit });
  if (!response) throw new Error(`${path} was not an auth path`);
  return response;
}

/** The per-account rate a path falls under. */
function accountRate(path: string): number {
  const rule = Object.values(DEFAULT_AUTH_LIMITS).find(
    (candidate) => candidate.by === "target" && candidate.paths.includes(path),
  );
  if (!rule) throw new Error(`no per-account limit covers ${path}`);
  return rule.rate.rate;
}

/** Spellings of one account (case and spaces differ: one bucket) and a decoy of every other identifier. */
function identifiers(
  source: string,
  tag: string,
): { spellings: string[]; decoys: () => Record<string, string> } {
  const base: Record<string, string> = {
    email: `acct-${run}-${tag}@x.io`,
    newEmail: `new-${run}-${tag}@x.io`,
    username: `acct_${run}_${tag}`,
    phoneNumber: `+1555${run.replace(/\D/g, "").padEnd(4, "7").slice(0, 4)}${tag.length}`,
  };
  const own = base[source] ?? "";
  return {
    spellings: [own, ` ${own.toUpperCase()} `, own.replace(/^./, (c) => c.toUpperCase())],
    decoys: () => {
      const decoy = crypto.randomUUID().slice(0, 8);
      return Object.fromEntries(
        Object.keys(base)
          .filter((field) => field !== source)
          .map((field) => [field, field.includes("mail") ? `${decoy}@decoy.io` : `decoy${decoy}`]),
      );
    },
  };
}

beforeAll(() => ensureMigrated(everyPluginAuth));

describe("the account table", () => {
  it("names an existing endpoint for every path, and a source for every per-account limit", () => {
    const paths = new Set(everyPluginEndpoints().map((endpoint) => endpoint.path));
    for (const path of Object.keys(AUTH_ACCOUNT_SOURCES)) expect(paths.has(path), path).toBe(true);
    for (const rule of Object.values(DEFAULT_AUTH_LIMITS)) {
      for (const path of rule.paths) {
        expect(paths.has(path), path).toBe(true);
        if (rule.by === "target")
          expect(Object.hasOwn(AUTH_ACCOUNT_SOURCES, path), path).toBe(true);
      }
    }
  });
});

describe("every limited endpoint counts its own field in every encoding", () => {
  const bodyPaths = Object.entries(AUTH_ACCOUNT_SOURCES).filter(
    ([, source]) => source !== "two-factor",
  );
  for (const [path, source] of bodyPaths) {
    it(`${path} counts ${source}`, async () => {
      const rate = accountRate(path);
      const { spellings, decoys } = identifiers(source, path.replace(/\W/g, ""));
      const remaining: (string | null)[] = [];
      const encodings: Encoding[] = ["json", "form", "multipart"];
      for (const [index, encoding] of encodings.entries()) {
        const response = await post(
          path,
          { ...decoys(), [source]: spellings[index] ?? "", password: "x", otp: "1", code: "1" },
          encoding,
        );
        expect(response.status, `${encoding}: ${await response.clone().text()}`).not.toBe(429);
        expect(response.status).toBeLessThan(500);
        expect(response.headers.get("ratelimit-limit"), encoding).toBe(String(rate));
        remaining.push(response.headers.get("ratelimit-remaining"));
      }
      expect(remaining).toEqual([rate - 1, rate - 2, rate - 3].map(String));
    });
  }
});

describe("two-factor paths count the user behind the challenge or the session", () => {
  let challengeCookie: string;
  let sessionBearer: string;

  beforeAll(async () => {
    const context = await everyPluginAuth.$context;
    const challenged = await context.internalAdapter.createUser(
      {
        email: `challenged-${run}@x.io`,
        name: "Challenged",
      },
      { method: "admin" },
    );
    const identifier = `2fa-${run}-challenge`;
    await context.internalAdapter.createVerificationValue({
      identifier,
      value: challenged.id,
      expiresAt: new Date(Date.now() + 600_000),
    });
    challengeCookie = `${context.createAuthCookie("two_factor").name}=${identifier}.signature`;
    const signedIn = await context.internalAdapter.createUser(
      {
        email: `signed-in-${run}@x.io`,
        name: "Signed in",
      },
      { method: "admin" },
    );
    sessionBearer = (await context.internalAdapter.createSession(signedIn.id, false)).token;
  });

  it("spends one bucket per challenged user across verify paths and encodings", async () => {
    const seen: (string | null)[] = [];
    for (const [path, encoding] of [
      ["/two-factor/verify-totp", "json"],
      ["/two-factor/verify-backup-code", "form"],
      ["/two-factor/verify-otp", "multipart"],
    ] as const) {
      const response = await post(path, { code: "000000", email: `decoy-${run}@x.io` }, encoding, {
        cookie: challengeCookie,
      });
      expect(response.status).not.toBe(429);
      seen.push(response.headers.get("ratelimit-remaining"));
    }
    // Per IP each call is the first (9 left); per account they add up.
    expect(seen).toEqual(["9", "8", "7"]);
    const send = await post("/two-factor/send-otp", {}, "json", { cookie: challengeCookie });
    expect(send.headers.get("ratelimit-limit")).toBe("5");
    expect(send.headers.get("ratelimit-remaining")).toBe("4");
  });

  it("counts the signed-in user without a challenge, and the challenge when both come", async () => {
    const bearer = { authorization: `Bearer ${sessionBearer}` };
    await post("/two-factor/verify-totp", { code: "1" }, "json", bearer);
    const second = await post("/two-factor/verify-totp", { code: "1" }, "form", bearer);
    expect(second.headers.get("ratelimit-remaining")).toBe("8");
    const both = await post("/two-factor/verify-totp", { code: "1" }, "json", {
      ...bearer,
      cookie: challengeCookie,
    });
    expect(both.headers.get("ratelimit-remaining")).toBe("6");
  });

  it("refuses the challenge cookie sent twice", async () => {
    const response = await post("/two-factor/verify-totp", { code: "1" }, "json", {
      cookie: `${challengeCookie}; ${challengeCookie.replace("challenge", "other")}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("a + tag shares its mailbox's send budget (issue 53, point 8)", () => {
  it("refuses the sixth magic link to t2+1…t2+7 as it does for t2 itself", async () => {
    const mailbox = `t2-${run}`;
    const statuses: number[] = [];
    for (let tag = 1; tag <= 7; tag++) {
      const response = await post(
        "/sign-in/magic-link",
        { email: `${mailbox}+${tag}@example.com` },
        "json",
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const plain = await post("/sign-in/magic-link", { email: `${mailbox}@example.com` }, "json");
    expect(plain.status).toBe(429);
    const other = await post("/sign-in/magic-link", { email: `t3-${run}@example.com` }, "json");
    expect(other.status).toBe(200);
  });
});

describe("IPv6 callers are counted by their /64 (issue 53, point 4)", () => {
  it("refuses the 21st sign-up from one /64, whatever address of it each came from", async () => {
    const network = `2001:db8:${run.slice(0, 4)}:ffff`;
    const statuses: number[] = [];
    for (let host = 1; host <= 21; host++) {
      const response = await post(
        "/sign-up/email",
        { email: `v6-${host}-${run}@x.io`, password: "a long password", name: "V6" },
        "json",
        { "cf-connecting-ip": `${network}::${host.toString(16)}` },
      );
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    const next = await post(
      "/sign-up/email",
      { email: `v6-next-${run}@x.io`, password: "a long password", name: "V6" },
      "json",
      { "cf-connecting-ip": `2001:db8:${run.slice(0, 4)}:fffe::1` },
    );
    expect(next.status).toBe(200);
  });
});
