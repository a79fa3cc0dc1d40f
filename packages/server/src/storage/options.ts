import { bucketOf } from "../backups/r2.ts";

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

/** The bucket and signing secret storage runs on, read from `env`. */
export interface StorageBindings {
  bucket: R2Bucket;
  secret: string;
}

/**
 * Reads the storage bucket and secret from `env`, or throws a configuration
 * error naming what is missing (the operator sees it in the logs; a client
 * sees `INTERNAL`).
 *
 * @example const { bucket, secret } = storageBindings(env, resolveStorageOptions());
 */
export function storageBindings(env: unknown, options: ResolvedStorageOptions): StorageBindings {
  const secret = (env as Record<string, unknown> | undefined)?.[options.secret];
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
    throw new Error(
      `svc: file storage needs a secret of at least ${MIN_SECRET_LENGTH} characters in env.${options.secret} (wrangler secret put ${options.secret})`,
    );
  }
  return { bucket: bucketOf(env, options.bucket, "storage.bucket"), secret };
}
