import { SvcError } from "../errors/svc-error.ts";
import { endpointStub } from "../model/endpoint-stub.ts";
import { handleDownload } from "../storage/download-route.ts";
import type { StorageEndpoint } from "../storage/endpoint.ts";
import { resolveStorageOptions, type StorageOptions } from "../storage/options.ts";
import { STORAGE_PREFIX } from "../storage/paths.ts";
import { handleUpload } from "../storage/upload-route.ts";
import type { Mount } from "../worker/mounts.ts";

const FILE_PATH = /^files\/(_storage_[0-9a-z]{26})$/;

/**
 * The worker's storage routes under `/_svc/storage/`: `upload` (see
 * `handleUpload`) and `files/<storage id>` (see `handleDownload`). Their
 * signed URLs are the credential, so neither resolves an identity.
 *
 * @example mounts.push(storageMount((env) => runtime.namespace(env), options.storage));
 */
export function storageMount<Env>(
  namespace: (env: Env) => DurableObjectNamespace,
  storage: StorageOptions | undefined,
): Mount<Env> {
  const options = resolveStorageOptions(storage);
  return {
    path: STORAGE_PREFIX,
    serve: ({ request, env, url, rest }) => {
      if (rest === "upload") {
        const shard = (key: string) => endpointStub<StorageEndpoint>(namespace(env), key);
        return handleUpload(request, env, url, shard, options);
      }
      const file = FILE_PATH.exec(rest);
      if (file !== null) return handleDownload(request, env, url, file[1]!, options);
      throw new SvcError("NOT_FOUND", "Not found.");
    },
  };
}
