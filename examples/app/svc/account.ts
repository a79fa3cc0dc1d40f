import { query, SvcError } from "@svc/server";

/** Who the caller is: the identity svc resolved from their session (never the session token). */
export const whoami = query
  .expose({ rest: true })
  .describe("Who am I")
  .handler(async (ctx) => {
    const identity = await ctx.auth.getIdentity();
    if (identity === null) throw new SvcError("UNAUTHENTICATED", "Sign in first.");
    return identity;
  });
