import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { AUTH_ACCOUNT_SOURCES } from "../../../../packages/auth/src/limits/accounts.ts";
import { exampleEndpoints } from "./auth-endpoints.ts";
import { appForThisFile } from "./harness.ts";
import { openLocalD1 } from "./state-db.ts";
import { totpCode, wrongTotpCode } from "./totp.ts";

/**
 * Issue 26 findings 1, 2, 3 and the two-factor half of 8, through real HTTP
 * against the example app: every limit and cap on `/api/auth/*` holds in
 * every body encoding better-auth parses, a per-account limit counts the
 * field that endpoint uses (decoys open no bucket), and two-factor
 * verification is limited per account.
 */

const app = appForThisFile();
const PASSWORD = "a long password";

type Encoding = "json" | "form" | "multipart";
const ENCODINGS: Encoding[] = ["json", "form", "multipart"];

/** A caller address of its own (IPv6 documentation range): per-IP limits never decide here. */
const freshIp = () => `2001:db8:26:${randomUUID().slice(0, 4)}::${randomUUID().slice(0, 4)}`;

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

function authPost(
  path: string,
  fields: Record<string, string>,
  encoding: Encoding,
  headers: Record<string, string> = {},
): Promise<Response> {
  const init = encode(fields, encoding);
  return fetch(`${app.url}/api/auth${path}`, {
    method: "POST",
    body: init.body ?? null,
    headers: {
      ...(init.headers as Record<string, string> | undefined),
      origin: app.url,
      "cf-connecting-ip": freshIp(),
      ...headers,
    },
  });
}

async function rows(sql: string, ...params: string[]): Promise<Record<string, unknown>[]> {
  const db = await openLocalD1(app.stateDir);
  try {
    return db.prepare(sql).all(...params) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** Identifier fields a decoy may fill: each limited path must ignore all but its own. */
const DECOY_FIELDS = ["email", "username", "phoneNumber", "newEmail"] as const;

function decoys(except: string): Record<string, string> {
  const tag = randomUUID().slice(0, 8);
  const values: Record<string, string> = {
    email: `decoy-${tag}@x.io`,
    username: `decoy_${tag}`,
    phoneNumber: `+1555${tag.replace(/\D/g, "").padEnd(7, "0").slice(0, 7)}`,
    newEmail: `decoy-new-${tag}@x.io`,
  };
  return Object.fromEntries(
    DECOY_FIELDS.filter((field) => field !== except).map((f) => [f, values[f] ?? ""]),
  );
}

interface Limited {
  path: string;
  field: string;
  /** The per-account default (`signInPerAccount` 10 / 15 min, `sendPerTarget` 5 / hour). */
  rate: number;
  /** The account, spelled differently on each attempt (case, spaces): one bucket. */
  spellings: string[];
  rest: Record<string, string>;
  /** For sign-ins: the last attempt carries the right password and must still be refused. */
  rightPassword?: boolean;
  /** For endpoints of a signed-in user: their credentials. */
  headers?: () => Record<string, string>;
}

let signedIn: Record<string, string> = {};

const LIMITED: Limited[] = [
  {
    path: "/sign-in/email",
    field: "email",
    rate: 10,
    spellings: ["victim@example.com", " Victim@Example.com ", "VICTIM@example.com"],
    rest: { password: "wrong guess" },
    rightPassword: true,
  },
  {
    path: "/sign-in/username",
    field: "username",
    rate: 10,
    spellings: ["annie", "Annie", " ANNIE "],
    rest: { password: "wrong guess" },
    rightPassword: true,
  },
  {
    path: "/request-password-reset",
    field: "email",
    rate: 5,
    spellings: ["reset@example.com", "Reset@example.com "],
    rest: {},
  },
  {
    path: "/sign-in/magic-link",
    field: "email",
    rate: 5,
    spellings: ["magic@example.com", "MAGIC@example.com"],
    rest: {},
  },
  {
    path: "/send-verification-email",
    field: "email",
    rate: 5,
    spellings: ["verify@example.com", " verify@EXAMPLE.com"],
    rest: {},
  },
  {
    path: "/change-email",
    field: "newEmail",
    rate: 5,
    spellings: ["moved@example.com", "Moved@Example.com"],
    rest: {},
    headers: () => signedIn,
  },
];

beforeAll(async () => {
  for (const [email, username] of [
    ["victim@example.com", undefined],
    ["annie@example.com", "annie"],
  ] as const) {
    const response = await authPost(
      "/sign-up/email",
      { email, password: PASSWORD, name: "Victim", ...(username ? { username } : {}) },
      "json",
    );
    expect(response.status, email).toBe(200);
    signedIn = { authorization: `Bearer ${response.headers.get("set-auth-token")}` };
  }
});

describe("the limited endpoints of the example app", () => {
  it("are exactly the body-field endpoints tested here plus two-factor", () => {
    const limited = exampleEndpoints()
      .map((endpoint) => endpoint.path)
      .filter((path) => Object.hasOwn(AUTH_ACCOUNT_SOURCES, path));
    expect(limited.sort()).toEqual(
      [
        ...LIMITED.map((entry) => entry.path),
        "/two-factor/send-otp",
        "/two-factor/verify-totp",
        "/two-factor/verify-otp",
        "/two-factor/verify-backup-code",
      ].sort(),
    );
  });
});

describe("findings 1 and 2: one account, one bucket, whatever the encoding or decoys", () => {
  for (const entry of LIMITED) {
    it(`${entry.path}: JSON, form and multipart with decoys count against ${entry.field}`, async () => {
      const remaining: (string | null)[] = [];
      for (let attempt = 0; attempt < entry.rate; attempt++) {
        const fields = {
          ...decoys(entry.field),
          ...entry.rest,
          [entry.field]: entry.spellings[attempt % entry.spellings.length] ?? "",
        };
        const encoding = ENCODINGS[attempt % ENCODINGS.length] ?? "json";
        const response = await authPost(entry.path, fields, encoding, entry.headers?.());
        expect(response.status, `${encoding} attempt ${attempt + 1}`).not.toBe(429);
        expect(response.headers.get("ratelimit-limit")).toBe(String(entry.rate));
        remaining.push(response.headers.get("ratelimit-remaining"));
        await response.body?.cancel();
      }
      expect(remaining).toEqual(
        Array.from({ length: entry.rate }, (_, i) => String(entry.rate - 1 - i)),
      );
      // The next attempt, as a form with the right password where there is one, is refused.
      const last = await authPost(
        entry.path,
        {
          ...decoys(entry.field),
          ...entry.rest,
          ...(entry.rightPassword ? { password: PASSWORD } : {}),
          [entry.field]: entry.spellings[0] ?? "",
        },
        "form",
        entry.headers?.(),
      );
      expect(last.status).toBe(429);
      expect(Number(last.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(last.headers.get("ratelimit-remaining")).toBe("0");
      expect(await last.json()).toMatchObject({ code: "RATE_LIMITED" });
    });
  }

  it("finding 1 as reported: form-encoded wrong passwords meet the account's limit", async () => {
    expect(
      (
        await authPost(
          "/sign-up/email",
          { email: "formed@example.com", password: PASSWORD, name: "F" },
          "form",
        )
      ).status,
    ).toBe(200);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      const response = await authPost(
        "/sign-in/email",
        { email: "formed@example.com", password: `wrong ${attempt}` },
        "form",
      );
      statuses.push(response.status);
      await response.body?.cancel();
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    const json = await authPost(
      "/sign-in/email",
      { email: "formed@example.com", password: PASSWORD },
      "json",
    );
    expect(json.status).toBe(429);
    expect(json.headers.get("ratelimit-remaining")).toBe("0");
  });

  it("finding 2 as reported: a decoy email on /sign-in/username opens no new bucket", async () => {
    expect(
      (
        await authPost(
          "/sign-up/email",
          { email: "bob@example.com", password: PASSWORD, name: "B", username: "bobby" },
          "json",
        )
      ).status,
    ).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await authPost(
        "/sign-in/username",
        { email: `decoy${i}@x.io`, username: "bobby", password: `wrong ${i}` },
        "json",
      );
      statuses.push(response.status);
      await response.body?.cancel();
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
  });
});

describe("finding 3: field caps and content types, every encoding", () => {
  const huge = `capped${"n".repeat(50_000)}`;

  for (const encoding of ENCODINGS) {
    it(`refuses a 50,000-character name sent as ${encoding} and stores nothing`, async () => {
      const email = `cap-${encoding}@example.com`;
      const response = await authPost(
        "/sign-up/email",
        { email, password: PASSWORD, name: huge },
        encoding,
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: "VALIDATION_FAILED",
        errors: [{ path: "body.name", message: "must be at most 256 characters" }],
      });
      expect(await rows("select id from user where email = ?", email)).toEqual([]);
    });
  }

  it("refuses a content type that smuggles a form under another name", async () => {
    for (const contentType of [
      "text/plain, application/x-www-form-urlencoded",
      "application/x-www-form-urlencoded,application/json",
      "application/json-patch+x, multipart/form-data",
    ]) {
      const email = `smuggled-${randomUUID().slice(0, 6)}@example.com`;
      const response = await fetch(`${app.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": contentType, origin: app.url, "cf-connecting-ip": freshIp() },
        body: new URLSearchParams({ email, password: PASSWORD, name: huge }).toString(),
      });
      expect(response.status, contentType).toBe(400);
      expect(await response.json(), contentType).toMatchObject({ code: "BAD_REQUEST" });
      expect(await rows("select id from user where email = ?", email)).toEqual([]);
    }
  });
});

describe("finding 8 (auth): two-factor verification is limited per account", () => {
  it("refuses the 11th verification of one account, from any address, even with the right code", async () => {
    const signUp = await authPost(
      "/sign-up/email",
      { email: "second@example.com", password: PASSWORD, name: "Second" },
      "json",
    );
    const bearer = { authorization: `Bearer ${signUp.headers.get("set-auth-token")}` };
    const enable = await authPost("/two-factor/enable", { password: PASSWORD }, "json", bearer);
    expect(enable.status).toBe(200);
    const { totpURI } = (await enable.json()) as { totpURI: string };
    // Confirming the authenticator is the account's first verification (1 of 10).
    const confirm = await authPost(
      "/two-factor/verify-totp",
      { code: totpCode(totpURI) },
      "json",
      bearer,
    );
    expect(confirm.status, await confirm.clone().text()).toBe(200);
    expect(confirm.headers.get("ratelimit-remaining")).toBe("9");

    /** A password sign-in: better-auth answers a two-factor challenge cookie. */
    const challenge = async (): Promise<string> => {
      const response = await authPost(
        "/sign-in/email",
        { email: "second@example.com", password: PASSWORD },
        "json",
      );
      expect(await response.json()).toMatchObject({ twoFactorRedirect: true });
      const cookie = response.headers
        .getSetCookie()
        .map((line) => line.split(";")[0] ?? "")
        .find((pair) => pair.includes("two_factor="));
      expect(cookie).toBeDefined();
      return cookie ?? "";
    };
    const wrong = wrongTotpCode(totpURI);
    const attempts: [string, Record<string, string>, Encoding][] = [
      ["/two-factor/verify-totp", { code: wrong }, "json"],
      ["/two-factor/verify-backup-code", { code: "not-a-backup-code" }, "form"],
      ["/two-factor/verify-otp", { code: wrong }, "json"],
      ["/two-factor/verify-totp", { code: wrong }, "form"],
      ["/two-factor/verify-totp", { code: wrong }, "json"],
    ];
    const remaining: (string | null)[] = [];
    // Two challenges (better-auth allows 5 tries each): 9 wrong tries from 9 addresses.
    for (const round of [attempts, attempts.slice(0, 4)]) {
      const cookie = await challenge();
      for (const [path, fields, encoding] of round) {
        const response = await authPost(path, fields, encoding, { cookie });
        expect(response.status, path).not.toBe(429);
        remaining.push(response.headers.get("ratelimit-remaining"));
        await response.body?.cancel();
      }
    }
    expect(remaining).toEqual(["8", "7", "6", "5", "4", "3", "2", "1", "0"]);

    const cookie = await challenge();
    const right = await authPost("/two-factor/verify-totp", { code: totpCode(totpURI) }, "json", {
      cookie,
    });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(right.headers.get("ratelimit-limit")).toBe("10");
    expect(await right.json()).toMatchObject({ code: "RATE_LIMITED" });
  });

  it("refuses a request carrying the challenge cookie twice", async () => {
    const response = await authPost("/two-factor/verify-totp", { code: "123456" }, "json", {
      cookie: "better-auth.two_factor=a.b; better-auth.two_factor=c.d",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST" });
  });
});
