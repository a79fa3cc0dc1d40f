import { SvcError } from "../errors/svc-error.ts";

/** One token, or several named ones (`{ alice: "…", ci: "…" }`); the name is the operator. */
export type AdminTokenOption = string | Readonly<Record<string, string>>;

/** Shortest admin token accepted; shorter ones are refused at start. */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

/** Operator name recorded for a single unnamed admin token. */
export const DEFAULT_OPERATOR = "admin";

interface NamedDigest {
  name: string;
  digest: ArrayBuffer;
}

/**
 * Normalises the `adminToken` option and refuses weak configuration before
 * the worker serves anything.
 */
export function adminTokensOf(
  option: AdminTokenOption | undefined,
): { name: string; token: string }[] {
  if (option === undefined) return [];
  const entries =
    typeof option === "string" ? [[DEFAULT_OPERATOR, option] as const] : Object.entries(option);
  if (entries.length === 0)
    throw new Error("svc: adminToken names no tokens; omit it to turn the admin surface off");
  return entries.map(([name, token]) => {
    if (typeof token !== "string" || token.length < MIN_ADMIN_TOKEN_LENGTH) {
      throw new Error(
        `svc: adminToken${typeof option === "string" ? "" : ` "${name}"`} must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters ` +
          "(set SVC_ADMIN_TOKEN to a random value, e.g. `openssl rand -hex 32`)",
      );
    }
    return { name, token };
  });
}

async function digest(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}

/** Compares two SHA-256 digests without an early exit, so timing says nothing about where they differ. */
function digestsEqual(a: ArrayBuffer, b: ArrayBuffer): boolean {
  const left = new Uint8Array(a);
  const right = new Uint8Array(b);
  let difference = left.length ^ right.length;
  for (let i = 0; i < left.length; i++) difference |= left[i]! ^ (right[i] ?? 0);
  return difference === 0;
}

/**
 * Checks `Authorization: Bearer <token>` against the admin tokens in constant
 * time (fixed-length digests, every token compared) and answers the operator
 * name. Anything else is one `UNAUTHENTICATED` that says nothing about which
 * admin routes exist.
 */
export function createAdminGate(
  option: AdminTokenOption | undefined,
): (request: Request) => Promise<string> {
  const tokens = adminTokensOf(option);
  let digests: Promise<NamedDigest[]> | undefined;
  return async (request) => {
    digests ??= Promise.all(
      tokens.map(async ({ name, token }) => ({ name, digest: await digest(token) })),
    );
    const header = request.headers.get("authorization") ?? "";
    // RFC 9110: the scheme is case-insensitive (`bearer x` is `Bearer x`); the token is not.
    const match = /^Bearer ([\x21-\x7e]+)$/i.exec(header);
    const presented = await digest(match?.[1] ?? "");
    let operator: string | undefined;
    for (const candidate of await digests) {
      if (digestsEqual(candidate.digest, presented) && match) operator ??= candidate.name;
    }
    if (operator === undefined) {
      throw new SvcError("UNAUTHENTICATED", "A valid admin token is required.", {
        headers: { "www-authenticate": 'Bearer realm="svc-admin"' },
      });
    }
    return operator;
  };
}
