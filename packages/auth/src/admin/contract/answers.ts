/**
 * The answers of the admin API that are more than one record: pages,
 * details, reports. Validators like the records of `shapes.ts`, so each
 * answer is stated once for the server, the docs and the dashboard.
 */
import { type Infer, named, oneOf, v } from "@svc/server/routes/contract";
import {
  adminAccount,
  adminOrganization,
  adminPasskey,
  adminSession,
  adminUser,
  signInLinkOutcome,
} from "./shapes.ts";

const cursor = v.union(v.string(), v.null()).describe("The next page's cursor; `null` at the end.");

/** `POST users` answer: the user, and the sign-in link when one was asked for. */
export const createdUser = v.object({ user: adminUser, signInLink: v.optional(signInLinkOutcome) });
/** @see {@link createdUser} */
export type CreatedUser = Infer<typeof createdUser>;

/**
 * `GET users` answer: one page, how many users match and the next page's
 * cursor. `total` is exact when `totalIsExact`; otherwise the filters match
 * more users than were worth counting and `total` is a lower bound (show
 * "10,000+").
 */
export const userPage = v.object({
  users: v.array(adminUser),
  total: v.number(),
  totalIsExact: v
    .boolean()
    .describe(
      "`false` when `total` is a lower bound: counting on would cost more than the page (`createAuthAdmin` option `totals.exactUpTo`, default 10,000).",
    ),
  nextCursor: cursor,
});
/** @see {@link userPage} */
export type UserPage = Infer<typeof userPage>;

/** `GET users/:id` answer. `passkeys` is present only with the passkey plugin. */
export const userDetail = v.object({
  user: adminUser,
  profile: v
    .record(v.any())
    .describe("The current value of every editable field (`capabilities.userFields`)."),
  accounts: v.array(adminAccount),
  sessions: v.array(adminSession),
  passkeys: v.optional(v.array(adminPasskey)),
});
/** @see {@link userDetail} */
export type UserDetail = Infer<typeof userDetail>;

/** `GET organizations` answer; `enabled: false` is the plugin-off state, not an error. */
export const organizationPage = v.union(
  v.object({
    enabled: v.literal(true),
    organizations: v.array(adminOrganization),
    total: v.number(),
    nextCursor: cursor,
  }),
  v.object({
    enabled: v.literal(false),
    organizations: v.array(adminOrganization),
    total: v.literal(0),
    nextCursor: v.null(),
  }),
);
/** @see {@link organizationPage} */
export type OrganizationPage = Infer<typeof organizationPage>;

/** `POST users/:id/impersonate` answer: the only token the admin API ever returns. */
export const impersonation = named(
  "Impersonation",
  v.object({
    token: v.string(),
    sessionId: v.string(),
    userId: v.string(),
    expiresAt: v.string(),
    cookie: v.string().describe("A ready `Cookie` header value carrying the same token."),
  }),
);
/** @see {@link impersonation} */
export type Impersonation = Infer<typeof impersonation>;

/**
 * `POST users/:id/impersonation-link` answer: a one-time link on the app's
 * origin that signs the browser opening it in as the user, usable once until `expiresAt`.
 */
export const impersonationLink = v.object({ url: v.string(), expiresAt: v.string() });
/** @see {@link impersonationLink} */
export type ImpersonationLink = Infer<typeof impersonationLink>;

/** `GET overview` answer: totals, sign-ups per UTC day (oldest first, zero days included) and active users. */
export const adminOverview = named(
  "Overview",
  v.object({
    totals: v.object({
      users: v.number(),
      emailVerified: v.number(),
      banned: v.union(v.number(), v.null()).describe("`null` without the admin plugin."),
      organizations: v.union(v.number(), v.null()).describe("`null` without organizations."),
    }),
    signUps: v.array(v.object({ day: v.string(), count: v.number() })),
    activeUsers: v.object({
      last24Hours: v.number(),
      last7Days: v.number(),
      last30Days: v.number(),
    }),
    generatedAt: v.string(),
  }),
);
/** @see {@link adminOverview} */
export type AdminOverview = Infer<typeof adminOverview>;

/** One row of an import's report. */
export const importRowResult = v.object({
  index: v.number().describe("Position in the request, from 0."),
  id: v.union(v.string(), v.null()),
  email: v.union(v.string(), v.null()),
  status: oneOf(["created", "valid", "skipped", "invalid"]),
  errors: v.optional(v.array(v.object({ field: v.string(), message: v.string() }))),
});
/** @see {@link importRowResult} */
export type ImportRowResult = Infer<typeof importRowResult>;

/** `POST users/import` answer: counts, then one result per row of the request (in order). */
export const adminImportReport = named(
  "ImportReport",
  v.object({
    dryRun: v.boolean(),
    created: v.number(),
    valid: v.number(),
    skipped: v.number(),
    invalid: v.number(),
    results: v.array(importRowResult),
  }),
);
/** @see {@link adminImportReport} */
export type AdminImportReport = Infer<typeof adminImportReport>;

/** The page of a list that has no total (members, invitations, audit entries). */
export const nextCursor = cursor;
