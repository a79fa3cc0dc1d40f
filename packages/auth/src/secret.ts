import { SvcAuthError } from "./errors.ts";

/**
 * Refuses a missing or blank `secret` with a message that says where it comes
 * from, instead of better-auth's generic default-secret error at first use.
 */
export function assertSecret(secret: unknown, caller: string): void {
  if (typeof secret === "string" && secret.trim() !== "") return;
  throw new SvcAuthError(
    "AUTH_SECRET_MISSING",
    `${caller} needs \`secret\` (got ${secret === undefined ? "undefined" : JSON.stringify(secret)}). ` +
      "It signs session cookies and tokens. Pass the AUTH_SECRET environment value " +
      "(`secret: env.AUTH_SECRET`; locally in .dev.vars, deployed with `wrangler secret put AUTH_SECRET`). " +
      "Make one with `openssl rand -base64 32`.",
  );
}
