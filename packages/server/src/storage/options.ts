import { bucketOf } from "../backups/r2.ts";
import { SvcError } from "../errors/svc-error.ts";

/**
 * Where a worker and its shards find file storage (docs/storage.md): the R2
 * bucket's binding and the env variable holding the secret that signs upload
 * and download URLs. The worker and the shard class must be given the same.
 *
 * @example
 * ```ts
 * createShard({ schema, functions, storage: { bucket: "FILES" } });
 * createWorker({ shardDO: "SHARD", functions, storage: { bucket: "FILES" } });
 * ```
 */
export interface StorageOptions {
  /** The R2 bucket binding that holds the bytes. @default "SVC_FILES" */
  bucket?: string;
  /** The env variable (a secret, at least 32 characters) that signs storage URLs. @default "SVC_STORAGE_SECRET" */
  secret?: string;
  /**
   * An upload no document references is deleted (bytes and metadata) once it
   * is older than this, the next time the shard collects.
   * @default 86400000 (one day)
   */
  unreferencedMs?: number;
}

/** {@link StorageOptions} with every default filled in. */
export type ResolvedStorageOptions = Required<StorageOptions>;

const DEFAULT_UNREFERENCED_MS = 24 * 60 * 60 * 1000;
const MIN_SECRET_LENGTH = 32;

/**
 * Fills in the defaults of {@link StorageOptions}, checking them.
 *
 * @example resolveStorageOptions({}).bucket // "SVC_FILES"
 */
export function resolveStorageOptions(options: StorageOptions = {}): ResolvedStorageOptions {
  const unreferencedMs = options.unreferencedMs ?? DEFAULT_UNREFERENCED_MS;
  if (!Number.isFinite(unreferencedMs) || unreferencedMs < 0)
    throw new Error("svc: storage.unreferencedMs must be a non-negative number of milliseconds");
  return {
    bucket: options.bucket ?? "SVC_FILES",
    secret: options.secret ?? "SVC_STORAGE_SECRET",
    unreferencedMs,
  };
}

/**
 * The R2 bucket that holds the files' bytes, or a configuration error naming
 * the missing binding. The bucket alone: listing, reading, storing and
 * deleting bytes (the operator's files routes, `ctx.storage.store/get`) need
 * no signing secret.
 *
 * @example const bucket = storageBucket(env, resolveStorageOptions());
 */
export function storageBucket(env: unknown, options: ResolvedStorageOptions): R2Bucket {
  return bucketOf(env, options.bucket, "storage.bucket");
}

/**
 * The secret that signs upload and download URLs, read from `env`. Only the
 * URLs need it: without it (or shorter than 32 characters) they are refused
 * `UNAVAILABLE` with `data.reason` `no_secret`, naming the variable to set,
 * while everything else about files goes on working.
 *
 * @example const secret = storageSecret(env, resolveStorageOptions());
 */
export function storageSecret(env: unknown, options: ResolvedStorageOptions): string {
  const secret = (env as Record<string, unknown> | undefined)?.[options.secret];
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
    throw new SvcError(
      "UNAVAILABLE",
      `File URLs are not configured: they are signed with a secret of at least ${MIN_SECRET_LENGTH} characters in env.${options.secret} (wrangler secret put ${options.secret}).`,
      { data: { reason: "no_secret" } },
    );
  }
  return secret;
}
