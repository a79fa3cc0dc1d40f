import { createShard, createWorker } from "@svc/server";
import { functions } from "../svc/_generated/functions.ts";
import schema from "../svc/schema.ts";

export const Shard = createShard({ schema, functions });

/**
 * The test app's identity: `Authorization: Bearer user:<id>` (also as the
 * `svc.bearer.` subprotocol of the live socket). Auth itself is better-auth's
 * job and is tested with the React template in Chromium; these tests are
 * about the hooks and the live-query store.
 */
export default createWorker({
  shardDO: "SHARD",
  functions,
  resolveIdentity: (request) => {
    const bearer = request.headers.get("authorization")?.match(/^Bearer user:(.+)$/)?.[1];
    return bearer ? { userId: bearer } : null;
  },
});
