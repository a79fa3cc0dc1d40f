import { createShard } from "@svc/server";
import { functions } from "./fixture/functions.ts";
import schema from "./fixture/schema.ts";

declare module "@svc/server" {
  interface Register {
    schema: typeof schema;
  }
}

/** The app's shard class, as an app's worker exports it. */
export const Shard = createShard({ schema, functions });

export default {
  async fetch() {
    return new Response("the harness tests call the shard directly", { status: 404 });
  },
} satisfies ExportedHandler;
