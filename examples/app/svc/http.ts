import { withAuthPlugins } from "@svc/auth/middleware";
import { httpAction, httpRouter, SvcError } from "@svc/server";
import { auth } from "../src/auth.ts";

const withAuth = withAuthPlugins(auth);

/** An organization as `/api/me` shows it. */
interface OrganizationSummary {
  id: string;
  name: string;
  slug: string;
}

/**
 * `GET /api/me`: the signed-in user's id and organizations. Identity comes
 * from the session (`ctx.auth`, as for RPC); the organizations come from
 * better-auth through `ctx.authApi` with the request's own headers.
 */
export const me = httpAction
  .use(withAuth)
  .describe("Who am I, with my organizations")
  .handler(async (ctx, request) => {
    if (ctx.auth.kind !== "user") throw new SvcError("UNAUTHENTICATED", "Sign in first.");
    const api = ctx.authApi as { listOrganizations?: typeof ctx.authApi.listOrganizations };
    const organizations: OrganizationSummary[] =
      api.listOrganizations === undefined
        ? []
        : (await api.listOrganizations({ headers: request.headers })).map(({ id, name, slug }) => ({
            id,
            name,
            slug,
          }));
    return Response.json({ userId: ctx.auth.userId, organizations });
  });

/** The app's own HTTP routes, outside `/_svc/`. */
const http = httpRouter();
http.get("/api/me", me);
export default http;
