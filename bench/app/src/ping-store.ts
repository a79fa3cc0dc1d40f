import { DurableObject } from "cloudflare:workers";

/** The rate limiter's baseline: an RPC method with nothing behind it. */
export class PingStore extends DurableObject {
  ping(): number {
    return 1;
  }
}
