/** The routes of `/_svc/admin/auth/` about API keys, declared once (see `routes.ts`). */
import { integer, route, text, v } from "@svc/server/routes/contract";
import { adminApiKey } from "./shapes.ts";

const keyFields = {
  name: text(100),
  scopes: v
    .array(text(200))
    .describe("1 to 50 scopes: `*`, a namespace or a procedure path, each optionally `.readonly`."),
  expiresInSeconds: v.optional(
    integer(1, 10 * 365 * 24 * 60 * 60).describe("Seconds until it stops working; absent: never."),
  ),
};

/**
 * `POST api-keys`: a key for a user (`ownerUserId`) or an organization
 * (`ownerOrganizationId`), exactly one of the two.
 */
export const newApiKey = v.union(
  v.object({ ownerUserId: v.string(), ...keyFields }),
  v.object({ ownerOrganizationId: v.string(), ...keyFields }),
);

/** `GET api-keys`: one owner's keys, or every key. */
export const apiKeyQuery = v.object({
  ownerUserId: v.optional(text(200)),
  ownerOrganizationId: v.optional(text(200)),
});

const withApiKey = v.object({ apiKey: adminApiKey });

/**
 * The API key routes: a credential for REST, RPC and sockets, owned by a
 * user or an organization. The key is answered once, on creation; only its
 * hash is stored.
 *
 * @example
 * ```ts
 * API_KEY_ROUTES.revokeApiKey.path; // "api-keys/:id"
 * ```
 */
export const API_KEY_ROUTES = {
  listApiKeys: route({
    method: "GET",
    path: "api-keys",
    summary: "API keys, newest first: one owner's (query), or every key",
    query: apiKeyQuery,
    answer: v.object({ apiKeys: v.array(adminApiKey) }),
  }),
  createApiKey: route({
    method: "POST",
    path: "api-keys",
    summary: "Create an API key; the answer holds the key, the only time it is shown",
    body: newApiKey,
    answer: v.object({
      apiKey: adminApiKey,
      key: v.string().describe("The key (`svc_…`): shown once, stored only as its hash."),
    }),
    status: 201,
    errors: ["NOT_FOUND"],
    audit: "api-key.create",
  }),
  revokeApiKey: route({
    method: "DELETE",
    path: "api-keys/:id",
    summary: "Revoke an API key: it answers 401 from now on (within a second everywhere)",
    answer: withApiKey,
    audit: "api-key.revoke",
  }),
};
