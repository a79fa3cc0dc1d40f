import { SvcError } from "../errors/svc-error.ts";

/**
 * The one not-found of the admin surface: an unknown shard answers exactly
 * what an unknown route does, so the answer tells nothing about which keys
 * exist. A leaf of its own, so the studio and the shard stub share it
 * without importing each other.
 *
 * @example if (shard === null) throw notFound();
 */
export function notFound(): SvcError {
  return new SvcError("NOT_FOUND", "Not found.");
}
