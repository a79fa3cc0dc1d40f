import { createAuthClient } from "better-auth/react";

/** better-auth's React client: sign-up, sign-in, sign-out and `useSession`, same origin. */
export const authClient = createAuthClient();
