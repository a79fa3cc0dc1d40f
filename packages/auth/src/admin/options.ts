import type { DashboardAssets } from "@svc/server";
import { SvcAuthError } from "../errors.ts";
import { isSameOriginPath } from "./impersonation/redirect.ts";

/**
 * Surfaces to force off, by the plugin that brings them. `false`
 * hides a surface even though its plugin is enabled (its routes answer 404,
 * `capabilities` says `false`); `true` or absent follows the plugin. A
 * surface whose plugin is off cannot be forced on.
 *
 * - `admin`: the user actions (`capabilities.userActions`)
 * - `organization`: organizations (`capabilities.organizations`)
 * - `twoFactor`: "disable two-factor" (`capabilities.twoFactor`)
 * - `passkey`: passkeys list / revoke (`capabilities.passkeys`)
 * - `username`: username search and field (`capabilities.username`)
 */
export interface AuthAdminFeatures {
  admin?: boolean;
  organization?: boolean;
  twoFactor?: boolean;
  passkey?: boolean;
  username?: boolean;
}

/** How `POST users/:id/impersonate` and `POST users/:id/impersonation-link` behave. */
export interface ImpersonationOptions {
  /** Lifetime of an impersonation session when the request names none. @default 3600 (1 h) */
  defaultDurationSeconds?: number;
  /** Longest lifetime a request may ask for. @default 3600 (1 h) */
  maxDurationSeconds?: number;
  /**
   * Shortest lifetime a request may ask for, at least 1. Short support
   * sessions (or a test that waits for one to end) can lower it.
   * @default 60
   */
  minDurationSeconds?: number;
  /**
   * Whether users with an admin role (the admin plugin's `adminRoles`, or
   * listed in its `adminUserIds`) may be impersonated. @default false
   */
  allowAdmins?: boolean;
  /**
   * Where "open the app as this user" lands when the link names no
   * `redirectTo`: a path on the app's own origin (`/app`, not a URL).
   * @default "/"
   */
  landingPath?: string;
}

/** Options of `createAuthAdmin(auth, options)`. */
export interface AuthAdminOptions {
  /** Surfaces forced off, e.g. `{ organization: false }`. */
  features?: AuthAdminFeatures;
  /** Impersonation lifetime and who may be impersonated. */
  impersonation?: ImpersonationOptions;
  /**
   * The dashboard `createWorker` serves at `/_svc/dashboard/`. By default the
   * one `@svc/dashboard` builds; `false` leaves the UI out (the admin API stays).
   */
  dashboard?: DashboardAssets | false;
  /**
   * How far `GET users` counts exactly when nothing cheaper answers: a
   * filter matching more users than `exactUpTo` (and no counter or small
   * index telling how many) answers `total: exactUpTo, totalIsExact: false`.
   * Counting a million matches would cost more than the page.
   * @default { exactUpTo: 10_000 }
   */
  totals?: { exactUpTo?: number };
}

/** {@link AuthAdminOptions} with every default filled in. */
export interface ResolvedAdminOptions {
  features: Required<AuthAdminFeatures>;
  impersonation: Required<ImpersonationOptions>;
  totals: { exactUpTo: number };
}

const FEATURES = ["admin", "organization", "twoFactor", "passkey", "username"] as const;
const IMPERSONATION_KEYS = [
  "defaultDurationSeconds",
  "maxDurationSeconds",
  "minDurationSeconds",
  "allowAdmins",
  "landingPath",
];
const OPTION_KEYS = ["features", "impersonation", "dashboard", "totals"];
const ONE_MINUTE = 60;
const ONE_HOUR = 3600;

/**
 * Checks the options once, at `createAuthAdmin`, so a typo (`organisation`)
 * or an impossible lifetime fails at start instead of silently doing nothing.
 *
 * @throws {SvcAuthError} `AUTH_ADMIN_INVALID_OPTIONS`
 * @example
 * ```ts
 * resolveAdminOptions({ features: { organization: false } }).features.organization; // false
 * ```
 */
export function resolveAdminOptions(options: AuthAdminOptions = {}): ResolvedAdminOptions {
  refuseUnknownKeys("options", options, OPTION_KEYS);
  const features = options.features ?? {};
  refuseUnknownKeys("options.features", features, FEATURES);
  const resolvedFeatures = {} as Required<AuthAdminFeatures>;
  for (const name of FEATURES) {
    const value = features[name] ?? true;
    if (typeof value !== "boolean") invalid(`options.features.${name} must be a boolean`);
    resolvedFeatures[name] = value;
  }
  const impersonation = options.impersonation ?? {};
  refuseUnknownKeys("options.impersonation", impersonation, IMPERSONATION_KEYS);
  const minDurationSeconds = impersonation.minDurationSeconds ?? ONE_MINUTE;
  if (!Number.isInteger(minDurationSeconds) || minDurationSeconds < 1) {
    invalid(
      "options.impersonation.minDurationSeconds must be a whole number of seconds, at least 1",
    );
  }
  const maxDurationSeconds = impersonation.maxDurationSeconds ?? ONE_HOUR;
  const defaultDurationSeconds =
    impersonation.defaultDurationSeconds ?? Math.min(ONE_HOUR, maxDurationSeconds);
  for (const [name, value] of Object.entries({ defaultDurationSeconds, maxDurationSeconds })) {
    if (!Number.isInteger(value) || value < minDurationSeconds) {
      invalid(
        `options.impersonation.${name} must be a whole number of seconds, at least ${minDurationSeconds} (minDurationSeconds)`,
      );
    }
  }
  if (defaultDurationSeconds > maxDurationSeconds) {
    invalid("options.impersonation.defaultDurationSeconds is longer than maxDurationSeconds");
  }
  const allowAdmins = impersonation.allowAdmins ?? false;
  if (typeof allowAdmins !== "boolean")
    invalid("options.impersonation.allowAdmins must be a boolean");
  const landingPath = impersonation.landingPath ?? "/";
  if (typeof landingPath !== "string" || !isSameOriginPath(landingPath)) {
    invalid("options.impersonation.landingPath must be a path on the app's origin, like /app");
  }
  const totals = options.totals ?? {};
  refuseUnknownKeys("options.totals", totals, ["exactUpTo"]);
  const exactUpTo = totals.exactUpTo ?? 10_000;
  if (!Number.isInteger(exactUpTo) || exactUpTo < 1) {
    invalid("options.totals.exactUpTo must be a whole number, at least 1");
  }
  return {
    totals: { exactUpTo },
    features: resolvedFeatures,
    impersonation: {
      defaultDurationSeconds,
      maxDurationSeconds,
      minDurationSeconds,
      allowAdmins,
      landingPath,
    },
  };
}

function refuseUnknownKeys(where: string, value: object, known: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key))
      invalid(`${where}.${key} is not an option (known: ${known.join(", ")})`);
  }
}

function invalid(message: string): never {
  throw new SvcAuthError("AUTH_ADMIN_INVALID_OPTIONS", `createAuthAdmin: ${message}`);
}
