/**
 * Query strings of the admin lists: allow-lists, so sorts, filters and
 * searches are exactly these fields (anything else is `VALIDATION_FAILED`).
 */
import { type Infer, integer, oneOf, text, v } from "@svc/server/routes/contract";
import { AUDIT_ACTIONS } from "./constants.ts";

/** Page size of every admin list when `limit` is absent. */
export const DEFAULT_LIMIT = 25;

const limit = v.optional(integer(1, 100).describe("Page size (default 25)."));
const cursor = v.optional(text(2000).describe("`nextCursor` of the previous page."));

/** Sort fields `GET users` accepts. */
export const USER_SORTS = ["created", "email", "name", "lastSignIn", "lastActive"] as const;

/** The filters `GET users` and `GET users/export` share. */
const userFilters = {
  search: v.optional(
    text(200).describe("Contained in email, name, username or id (ASCII case ignored)."),
  ),
  role: v.optional(text(100).describe("Users holding this role (admin plugin).")),
  banned: v.optional(v.boolean().describe("The ban in force (admin plugin).")),
};

/** Query of `GET users`. */
export const userQuery = v.object({
  ...userFilters,
  sort: v.optional(oneOf(USER_SORTS)),
  order: v.optional(oneOf(["asc", "desc"])),
  limit,
  cursor,
});

/** Most ids one `GET users/names` names. */
export const MAX_USER_NAMES = 100;

/** Query of `GET users/names`. */
export const userNamesQuery = v.object({
  ids: text(MAX_USER_NAMES * 64).describe(
    `User ids separated by commas, at most ${MAX_USER_NAMES} (repeats count once).`,
  ),
});

/** Query of `GET users/export`. */
export const exportQuery = v.object({
  format: v.optional(oneOf(["json", "csv"]).describe("Default `json`.")),
  ...userFilters,
  passwordHashes: v.optional(v.boolean().describe("Adds each user's password hash (audited).")),
});

/** @see {@link exportQuery} */
export type ExportQuery = Infer<typeof exportQuery>;

/** Query of `GET overview`. */
export const overviewQuery = v.object({
  days: v.optional(integer(1, 90).describe("Days of sign-ups (default 30).")),
});

/** Query of `GET organizations`. */
export const organizationQuery = v.object({
  search: v.optional(text(200).describe("Contained in name or slug, or the exact id.")),
  limit,
  cursor,
});

/** Query of the lists inside an organization (members, invitations). */
export const pageQuery = v.object({ limit, cursor });

/** Query of `GET audit`. */
export const auditQuery = v.object({
  target: v.optional(text(200).describe("The entry's targetId or userId.")),
  action: v.optional(oneOf(AUDIT_ACTIONS)),
  operator: v.optional(text(200).describe("The admin token's name.")),
  limit,
  cursor,
});

/** Query of `POST users/import`. */
export const importQuery = v.object({
  dryRun: v.optional(v.boolean().describe("Check every row, write nothing.")),
});

/** Query of `GET users`, as a client writes it. */
export type UserQuery = Infer<typeof userQuery>;

/** One of {@link USER_SORTS}. */
export type UserSort = (typeof USER_SORTS)[number];
