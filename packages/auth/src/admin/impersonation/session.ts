import { SvcError } from "@svc/server";
import type { AdminEnvironment } from "../environment.ts";
import { Issues } from "../issues.ts";
import { isBanInForce, OPERATOR_PREFIX, type Row } from "../records.ts";
import { isAdmin } from "../users/guards.ts";
import { loadUserRow } from "../users/load.ts";

const MAX_REASON = 1000;

/**
 * The lifetime an impersonation request asks for (or the default), after
 * checking it and the reason: `400` with every problem at once. Shared by
 * `users/:id/impersonate` and `users/:id/impersonation-link`, so both bound
 * the session the same way.
 *
 * @throws {SvcError} `VALIDATION_FAILED`
 * @example
 * ```ts
 * const seconds = impersonationDuration(environment, { durationSeconds: 900, reason: "ticket 1" });
 * ```
 */
export function impersonationDuration(
  environment: AdminEnvironment,
  body: { reason?: string; durationSeconds?: number },
): number {
  const { impersonation } = environment;
  const duration = body.durationSeconds ?? impersonation.defaultDurationSeconds;
  const issues = new Issues("body");
  const { minDurationSeconds, maxDurationSeconds } = impersonation;
  if (
    !Number.isInteger(duration) ||
    duration < minDurationSeconds ||
    duration > maxDurationSeconds
  ) {
    issues.add(
      "durationSeconds",
      `must be a whole number of seconds from ${minDurationSeconds} to ${maxDurationSeconds}`,
    );
  }
  if (body.reason !== undefined && body.reason.length > MAX_REASON) {
    issues.add("reason", `must be at most ${MAX_REASON} characters`);
  }
  issues.throwIfAny();
  return duration;
}

/**
 * The user to impersonate, refused when they are an admin (unless
 * `impersonation.allowAdmins`: `403`) or banned (`409`). Checked when a
 * session or link is asked for, and again when a link is used: the user may
 * have been banned or promoted in between.
 *
 * @throws {SvcError} `NOT_FOUND`, `FORBIDDEN`, `CONFLICT`
 * @example
 * ```ts
 * const row = await impersonableUser(environment, "u1");
 * ```
 */
export async function impersonableUser(environment: AdminEnvironment, id: string): Promise<Row> {
  const row = await loadUserRow(environment, id);
  if (isAdmin(environment, row) && !environment.impersonation.allowAdmins) {
    throw new SvcError(
      "FORBIDDEN",
      "Impersonating an admin user is not allowed (createAuthAdmin option impersonation.allowAdmins).",
    );
  }
  if (isBanInForce(row, Date.now())) {
    throw new SvcError("CONFLICT", "The user is banned; a banned user cannot have a session.");
  }
  return row;
}

/**
 * Creates the bounded impersonation session: an ordinary better-auth session
 * (through its internal adapter) that expires after `durationSeconds` and
 * names the operator in `impersonatedBy` (`svc-operator:<name>`), which the
 * impersonation guard keeps from outliving that bound or minting access.
 *
 * @example
 * ```ts
 * const session = await createImpersonationSession(environment, { userId, operator: "alice", durationSeconds: 3600, request });
 * ```
 */
export async function createImpersonationSession(
  environment: AdminEnvironment,
  input: { userId: string; operator: string; durationSeconds: number; request: Request },
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const expiresAt = new Date(Date.now() + input.durationSeconds * 1000);
  const session = await environment.auth.internalAdapter.createSession(
    input.userId,
    true,
    {
      impersonatedBy: `${OPERATOR_PREFIX}${input.operator}`,
      expiresAt,
      ipAddress: input.request.headers.get("cf-connecting-ip") ?? "",
      userAgent: input.request.headers.get("user-agent") ?? "",
    },
    true,
  );
  return { id: session.id, token: session.token, expiresAt };
}
