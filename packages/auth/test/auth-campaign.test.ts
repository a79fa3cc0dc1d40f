import { DAY, type RateConfig } from "@svc/ratelimit";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AUTH_ACCOUNT_SOURCES,
  AUTH_FIELD_LIMITS,
  type AuthLimitName,
  createAuthRateLimit,
  DEFAULT_AUTH_LIMITS,
  ensureMigrated,
  handleAuthRequest,
} from "../src/index.ts";
import { accountOf } from "../src/limits/accounts.ts";
import { readAuthBody } from "../src/limits/body-reader.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";
import { bodiesSeen, everyPluginAuth } from "./fixture/every-plugin.ts";

/**
 * Issue 26's property campaign: random bodies, in every content type (JSON,
 * form, multipart, text, none, garbage bytes, smuggling content types), with
 * random and decoy fields, at every limited auth endpoint of every plugin.
 * Asserts, for each request:
 *
 * - no 5xx;
 * - limits counted: the `RateLimit-*` headers (or the 429) are exactly what a
 *   model of the limits predicts from the account the path names;
 * - caps enforced: an over-long user field is `400 VALIDATION_FAILED`, and
 *   whatever body better-auth's handler received (recorded by a hook) holds
 *   no over-long field and names the very account svc counted.
 *
 * Small rates over a day keep the model exact (no window rolls mid-run) and
 * make limits bite within a few hundred requests.
 */

const RUNS = 300;
const ACCOUNT_RATE = 3;
const IP_RATE = 8;
const run = crypto.randomUUID().slice(0, 4);

const RULES = Object.entries(DEFAULT_AUTH_LIMITS) as [
  AuthLimitName,
  (typeof DEFAULT_AUTH_LIMITS)[AuthLimitName],
][];
const rateOf = (by: "ip" | "target") => (by === "ip" ? IP_RATE : ACCOUNT_RATE);
const rateLimit = createAuthRateLimit({
  store: "RATE_LIMITER",
  limits: Object.fromEntries(
    RULES.map(([name, rule]): [AuthLimitName, RateConfig] => [
      name,
      { kind: "sliding window", rate: rateOf(rule.by), period: DAY },
    ]),
  ),
});

const LIMITED_PATHS = [
  ...Object.keys(AUTH_ACCOUNT_SOURCES),
  "/sign-up/email",
  "/sign-in/anonymous",
] as const;
// Each address in a /64 of its own: per-IP limits count an IPv6 /64 as one caller.
const MODELLED_IPS = Array.from({ length: 24 }, (_, i) => `2001:db8:c${i}:${run}::1`);
const GARBAGE_IPS = Array.from({ length: 8 }, (_, i) => `2001:db8:d${i}:${run}::1`);
const POOL: Record<string, string[]> = {
  email: [0, 1, 2].map((i) => `c${i}-${run}@x.io`),
  newEmail: [0, 1, 2].map((i) => `n${i}-${run}@x.io`),
  username: [0, 1, 2].map((i) => `c${i}_${run}`),
  phoneNumber: [0, 1, 2].map((i) => `+1555${i}${run.replace(/\D/g, "7")}`),
};
const SPELLINGS = [
  (value: string) => value,
  (value: string) => value.toUpperCase(),
  (value: string) => `  ${value}\t`,
  (value: string) => value.replace(/^./, (first) => first.toUpperCase()),
];
/** The users behind the two challenge cookies made in `beforeAll`. */
const challengeUsers: string[] = [];
let challengeCookieName = "";

// ── the cases ────────────────────────────────────────────────────────────────

const text = fc.oneof(
  { arbitrary: fc.string({ maxLength: 12 }), weight: 6 },
  { arbitrary: fc.constantFrom("", "   ", "日本", "\u0000", "a=b&c", "--x"), weight: 2 },
  { arbitrary: fc.string({ minLength: 250, maxLength: 300 }), weight: 1 },
);
const KEYS = [
  "email",
  "username",
  "phoneNumber",
  "newEmail",
  "password",
  "name",
  "image",
  "code",
  "otp",
  "callbackURL",
  "__proto__",
  "x",
];
const accountChoice = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 1 },
  {
    arbitrary: fc.record({
      index: fc.nat({ max: 2 }),
      spelling: fc.nat({ max: SPELLINGS.length - 1 }),
    }),
    weight: 5,
  },
  { arbitrary: text, weight: 1 },
);
const KINDS = [
  "json",
  "json",
  "json",
  "form",
  "form",
  "form",
  "multipart",
  "multipart",
  "text",
  "none",
  "garbage",
  "smuggled",
  "json-scalar",
] as const;

const campaignCase = fc.record({
  path: fc.constantFrom(...LIMITED_PATHS),
  kind: fc.constantFrom(...KINDS),
  fields: fc.dictionary(fc.constantFrom(...KEYS), text, { maxKeys: 5 }),
  account: accountChoice,
  oddity: fc.option(fc.constantFrom<unknown>(1, true, null, ["a"], { a: 1 }), { nil: undefined }),
  jsonType: fc.constantFrom(
    "application/json",
    "application/json; charset=utf-8",
    "APPLICATION/JSON",
    "application/vnd.api+json",
  ),
  formType: fc.constantFrom(
    "application/x-www-form-urlencoded",
    "application/x-www-form-urlencoded; charset=UTF-8",
  ),
  smuggledType: fc.constantFrom(
    "text/plain, application/x-www-form-urlencoded",
    "application/x-www-form-urlencoded,application/json",
    "application/json-seq",
    "text/html; x=multipart/form-data",
  ),
  garbage: fc.uint8Array({ maxLength: 120 }),
  garbageType: fc.constantFrom(
    "application/json",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=xyz",
    "multipart/form-data",
    "text/plain",
    "application/octet-stream",
    "",
  ),
  scalar: fc.constantFrom<unknown>([], ["email"], 1, "email", null, true),
  challenge: fc.constantFrom(undefined, 0, 1),
  ip: fc.nat({ max: MODELLED_IPS.length - 1 }),
});
type Case = typeof campaignCase extends fc.Arbitrary<infer T> ? T : never;

/** The fields the case sends (what better-auth should parse), after its account is set. */
function fieldsOf(c: Case): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...c.fields };
  const source = AUTH_ACCOUNT_SOURCES[c.path as keyof typeof AUTH_ACCOUNT_SOURCES];
  if (source === undefined || source === "two-factor") return fields;
  if (typeof c.account === "object") {
    const base = POOL[source]?.[c.account.index] ?? "";
    fields[source] = SPELLINGS[c.account.spelling]?.(base) ?? base;
  } else if (typeof c.account === "string") {
    fields[source] = c.account;
  }
  if (c.kind === "json" && c.oddity !== undefined) fields[source] = c.oddity;
  return fields;
}

function buildRequest(c: Case, id: string): Request {
  const headers: Record<string, string> = { origin: TEST_ORIGIN, "x-probe-id": id };
  headers["cf-connecting-ip"] =
    c.kind === "garbage"
      ? (GARBAGE_IPS[c.ip % GARBAGE_IPS.length] ?? "")
      : (MODELLED_IPS[c.ip] ?? "");
  const challengeUser = c.challenge === undefined ? undefined : challengeUsers[c.challenge];
  if (challengeUser !== undefined && c.kind !== "garbage") {
    headers.cookie = `${challengeCookieName}=2fa-${run}-${c.challenge}.unsigned`;
  }
  const fields = fieldsOf(c);
  const strings = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  let body: BodyInit | undefined;
  switch (c.kind) {
    case "json":
      headers["content-type"] = c.jsonType;
      body = JSON.stringify(fields);
      break;
    case "json-scalar":
      headers["content-type"] = "application/json";
      body = JSON.stringify(c.scalar);
      break;
    case "form":
      headers["content-type"] = c.formType;
      body = new URLSearchParams(strings).toString();
      break;
    case "multipart": {
      const form = new FormData();
      for (const [key, value] of Object.entries(strings)) form.append(key, value);
      body = form;
      break;
    }
    case "text":
      headers["content-type"] = "text/plain";
      body = JSON.stringify(fields);
      break;
    case "smuggled":
      headers["content-type"] = c.smuggledType;
      body = c.smuggledType.includes("json-seq")
        ? JSON.stringify(fields)
        : new URLSearchParams(strings).toString();
      break;
    case "garbage":
      if (c.garbageType) headers["content-type"] = c.garbageType;
      body = c.garbage;
      break;
    case "none":
      break;
  }
  return new Request(`${TEST_ORIGIN}/api/auth${c.path}`, { method: "POST", headers, body });
}

// ── the model ────────────────────────────────────────────────────────────────

type Expected =
  | { kind: "refused by guard"; code: "BAD_REQUEST" | "VALIDATION_FAILED"; fields?: string[] }
  | { kind: "rate limited"; limit: number }
  | { kind: "admitted"; limit: number; remaining: number };

const counts = new Map<string, number>();

/** The account the case names, by the path's own field (or challenge), as a model independent of src. */
function modelAccount(c: Case, fields: Record<string, unknown> | undefined): string | undefined {
  const source = (AUTH_ACCOUNT_SOURCES as Record<string, string>)[c.path];
  if (source === undefined) return undefined;
  if (source === "two-factor") {
    const user = c.challenge === undefined ? undefined : challengeUsers[c.challenge];
    return user === undefined ? undefined : `user:${user}`;
  }
  const value = fields !== undefined && Object.hasOwn(fields, source) ? fields[source] : undefined;
  return typeof value === "string" && value.trim() !== ""
    ? `${source}:${value.trim().toLowerCase()}`
    : undefined;
}

function overCap(fields: Record<string, unknown>): string[] {
  return Object.entries(AUTH_FIELD_LIMITS)
    .filter(([field, max]) => {
      const value = Object.hasOwn(fields, field) ? fields[field] : undefined;
      return typeof value === "string" && value.length > max;
    })
    .map(([field]) => `body.${field}`);
}

/** What the limits must answer, spending the model's counters as the store does. */
function expectOf(c: Case): Expected {
  if (c.kind === "smuggled" || c.kind === "json-scalar") {
    return { kind: "refused by guard", code: "BAD_REQUEST" };
  }
  if (c.kind === "none" && c.path !== "/two-factor/send-otp" && c.path !== "/sign-in/anonymous") {
    return { kind: "refused by guard", code: "BAD_REQUEST" };
  }
  const parsed = c.kind === "json" || c.kind === "form" || c.kind === "multipart";
  const sent = fieldsOf(c);
  const fields = parsed
    ? c.kind === "json"
      ? sent
      : Object.fromEntries(Object.entries(sent).map(([k, v]) => [k, String(v)]))
    : undefined;
  if (fields !== undefined) {
    // JSON.parse keeps a `__proto__` key; a form read into a plain object drops it.
    if (c.kind !== "json") Reflect.deleteProperty(fields, "__proto__");
    const capped = overCap(fields);
    if (capped.length > 0)
      return { kind: "refused by guard", code: "VALIDATION_FAILED", fields: capped };
  }
  const ip = MODELLED_IPS[c.ip] ?? "";
  const account = modelAccount(c, fields);
  let tightest: Expected | undefined;
  for (const [name, rule] of RULES) {
    if (!rule.paths.includes(c.path)) continue;
    const key = rule.by === "ip" ? ip : account;
    if (key === undefined) continue;
    const rate = rateOf(rule.by);
    const spent = counts.get(`${name}|${key}`) ?? 0;
    if (spent >= rate) return { kind: "rate limited", limit: rate };
    counts.set(`${name}|${key}`, spent + 1);
    if (
      tightest === undefined ||
      (tightest.kind === "admitted" && rate - spent - 1 < tightest.remaining)
    ) {
      tightest = { kind: "admitted", limit: rate, remaining: rate - spent - 1 };
    }
  }
  if (tightest === undefined) throw new Error(`no limit covers ${c.path}`);
  return tightest;
}

/** The account svc's own reader and table find in a request: compared with what better-auth saw. */
async function svcAccount(c: Case, id: string): Promise<string | undefined> {
  const { fields } = await readAuthBody(buildRequest(c, id), 64 * 1024).catch(() => ({
    fields: undefined,
  }));
  return accountOf(c.path, fields, async () => undefined);
}

// ── the campaign ─────────────────────────────────────────────────────────────

beforeAll(async () => {
  await ensureMigrated(everyPluginAuth);
  const context = await everyPluginAuth.$context;
  challengeCookieName = context.createAuthCookie("two_factor").name;
  for (const index of [0, 1]) {
    const user = await context.internalAdapter.createUser(
      {
        email: `campaign-${index}-${run}@x.io`,
        name: `Campaign ${index}`,
      },
      { method: "admin" },
    );
    await context.internalAdapter.createVerificationValue({
      identifier: `2fa-${run}-${index}`,
      value: user.id,
      expiresAt: new Date(Date.now() + DAY),
    });
    challengeUsers.push(user.id);
  }
});

describe("property campaign over every limited auth endpoint", () => {
  it(`answers ${RUNS} random bodies without a 5xx, with limits counted and caps enforced`, async () => {
    const statuses = new Map<number, number>();
    const tally = { limited: 0, capped: 0, smuggled: 0, compared: 0 };
    let serial = 0;
    await fc.assert(
      fc.asyncProperty(campaignCase, async (c) => {
        const id = `${run}-${++serial}`;
        const expected = c.kind === "garbage" ? undefined : expectOf(c);
        const response = await handleAuthRequest(everyPluginAuth, buildRequest(c, id), {
          rateLimit,
        });
        if (!response) throw new Error(`${c.path} was not an auth path`);
        const body = await response.text();
        const where = `${JSON.stringify({ ...c, garbage: c.garbage.length })} → ${response.status} ${body.slice(0, 200)}`;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status, where).toBeLessThan(500);

        if (expected?.kind === "refused by guard") {
          expect(response.status, where).toBe(400);
          expect(JSON.parse(body), where).toMatchObject({ code: expected.code });
          if (expected.code === "VALIDATION_FAILED") {
            tally.capped++;
            const paths = (JSON.parse(body) as { errors: { path: string }[] }).errors.map(
              (e) => e.path,
            );
            expect(paths.sort(), where).toEqual(expected.fields?.sort());
          } else tally.smuggled++;
        } else if (expected?.kind === "rate limited") {
          tally.limited++;
          expect(response.status, where).toBe(429);
          expect(Number(response.headers.get("retry-after")), where).toBeGreaterThanOrEqual(1);
          expect(response.headers.get("ratelimit-limit"), where).toBe(String(expected.limit));
          expect(response.headers.get("ratelimit-remaining"), where).toBe("0");
        } else if (expected?.kind === "admitted") {
          expect(response.status, where).not.toBe(429);
          expect(response.headers.get("ratelimit-limit"), where).toBe(String(expected.limit));
          expect(response.headers.get("ratelimit-remaining"), where).toBe(
            String(expected.remaining),
          );
        } else if (response.status !== 400 && response.status !== 429) {
          // Garbage: not modelled, but counted whenever it got past the reader.
          expect(response.headers.get("ratelimit-limit"), where).not.toBeNull();
        }

        const seen = bodiesSeen.get(id);
        if (seen !== undefined && typeof seen === "object" && seen !== null) {
          tally.compared++;
          const record = seen as Record<string, unknown>;
          expect(overCap(record), `better-auth saw an over-long field: ${where}`).toEqual([]);
          const theirs = await accountOf(c.path, record, async () => undefined);
          expect(await svcAccount(c, `${id}-again`), `account better-auth saw: ${where}`).toBe(
            theirs,
          );
        }
      }),
      // The model counts as it goes: a shrinking re-run would replay spent counters.
      { numRuns: RUNS, endOnFailure: true },
    );
    console.log(
      `auth campaign: ${JSON.stringify({ runs: RUNS, ...tally, statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)) })}`,
    );
    expect(tally.limited).toBeGreaterThan(0);
    expect(tally.capped).toBeGreaterThan(0);
    expect(tally.compared).toBeGreaterThan(20);
  }, 120_000);
});
