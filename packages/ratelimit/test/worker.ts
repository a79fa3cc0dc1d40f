import { DurableObject } from "cloudflare:workers";

import { RateLimitStore } from "../src/index.ts";

export { RateLimitStore };

/** A store whose every call throws, as a store with failing storage would. */
export class BrokenStore extends DurableObject {
  async limit(): Promise<never> {
    throw new Error("storage is on fire");
  }
}

/** A store that never answers in time, as an overloaded or unreachable one. */
export class SilentStore extends DurableObject {
  async limit(): Promise<never> {
    await scheduler.wait(60_000);
    throw new Error("answered far too late");
  }
}

/** The real store, bound by mistake without SQLite (`new_classes`). */
export class KvBackedStore extends RateLimitStore {}
