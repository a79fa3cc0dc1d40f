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

/**
 * A shard the registry does not list, named: what the studio (a run, a
 * browse) answers so the operator knows it was the shard, not the user or
 * the table, that was missing. Behind the admin token, where every key can
 * be listed anyway, naming it reveals nothing.
 *
 * @example if (!known) throw unknownShard("room-1"); // 404 "No shard room-1 …"
 */
export function unknownShard(key: string): SvcError {
  return new SvcError(
    "NOT_FOUND",
    `No shard ${key}: the registry does not list it (never written to, or deleted).`,
  );
}
