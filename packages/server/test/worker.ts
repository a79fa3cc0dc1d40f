import { createShard, createWorker } from "../src/index.ts";
import { functions } from "./fixture/functions.ts";
import { openApiSpec } from "./fixture/openapi.ts";
import schema from "./fixture/schema.ts";
import "./telemetry-recorder.ts";

export const Shard = createShard({ schema, functions });

/** Test identity: the `x-test-user` header names the caller. */
export default createWorker({
  shardDO: "SHARD",
  functions,
  adminToken: "test-admin-token-0123456789abcdef",
  resolveIdentity: (request) => {
    const user = request.headers.get("x-test-user");
    return user ? { userId: user, name: `User ${user}` } : null;
  },
  openApiSpec,
  fetch: () => new Response("app route"),
});
