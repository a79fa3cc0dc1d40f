import { runInDurableObject } from "cloudflare:test";
import type { FileMetadata, Id, StorableBody } from "@svc/server";
import { SHARD_IN_ISOLATE, type ShardInIsolate } from "@svc/server/internal";

/**
 * A test's view of one shard's files (`t.storage`): the shard's own
 * `ctx.storage` (its `_svc_storage` table, the bytes in the R2 bucket the
 * plugin's Miniflare gives the worker, the same size and type checks and
 * SHA-256), with RLS off. For putting a file in place before a call and
 * checking what a call stored; a procedure under test still reads files
 * under its own rules.
 *
 * @example
 * ```ts
 * const id = await t.as({ userId: "ann" }).storage.store(new Blob(["hi"], { type: "text/plain" }));
 * expect(await t.storage.text(id)).toBe("hi");
 * ```
 */
export interface TestStorage {
  /**
   * Stores `body` as an action's `ctx.storage.store` would, uploaded by the
   * harness's user (who may read it while no document references it).
   */
  store(body: StorableBody, options?: { contentType?: string }): Promise<Id<"_storage">>;
  /** The file's bytes, with its content type, or `null` when there is no such file. */
  get(storageId: Id<"_storage">): Promise<Blob | null>;
  /** The file's bytes as text (UTF-8), or `null`. */
  text(storageId: Id<"_storage">): Promise<string | null>;
  /** Size, type, SHA-256 and time of the file, or `null`. */
  getMetadata(storageId: Id<"_storage">): Promise<FileMetadata | null>;
  /** Deletes the file (metadata and bytes) at once; `NOT_FOUND` when there is none. */
  delete(storageId: Id<"_storage">): Promise<void>;
}

/** Runs `work` with the shard's privileged storage, inside the shard's isolate. */
function inShard<T>(
  stub: DurableObjectStub,
  uploader: string | null,
  work: (storage: ReturnType<ShardInIsolate["storage"]>) => Promise<T>,
): Promise<T> {
  return runInDurableObject(stub, (instance: object) => {
    const door = (instance as { [SHARD_IN_ISOLATE]?: ShardInIsolate })[SHARD_IN_ISOLATE];
    if (door === undefined) {
      throw new TypeError("@svc/testing: the shard binding's class is not createShard's");
    }
    return work(door.storage(uploader));
  });
}

/**
 * The {@link TestStorage} of the shard behind `stub`, storing as `uploader`.
 * Bytes are read inside the shard and handed out as a `Blob`: a stream
 * opened in the shard's request would not outlive it.
 *
 * @example const storage = testStorage(stub, "ann");
 */
export function testStorage(stub: DurableObjectStub, uploader: string | null): TestStorage {
  const get = async (storageId: Id<"_storage">) => {
    const found = await inShard(stub, uploader, async (storage) => {
      const [metadata, stream] = [
        await storage.getMetadata(storageId),
        await storage.get(storageId),
      ];
      if (metadata === null || stream === null) return null;
      return { type: metadata.contentType, bytes: await new Response(stream).arrayBuffer() };
    });
    return found === null ? null : new Blob([found.bytes], { type: found.type });
  };
  return {
    store: (body, options) => inShard(stub, uploader, (storage) => storage.store(body, options)),
    get,
    text: async (storageId) => (await get(storageId))?.text() ?? null,
    getMetadata: (storageId) =>
      inShard(stub, uploader, (storage) => storage.getMetadata(storageId)),
    delete: (storageId) => inShard(stub, uploader, (storage) => storage.delete(storageId)),
  };
}
