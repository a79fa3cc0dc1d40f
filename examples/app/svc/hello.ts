import { query, v } from "@svc/server";

/** The trivial procedure: `GET /_svc/rest/hello/ping?name=dev` or RPC `hello:ping`. */
export const ping = query
  .input({ name: v.optional(v.string()) })
  .output(v.string())
  .expose({ rest: true })
  .describe("Says pong", "Answers `pong <name>`; a health check that needs no sign-in.")
  .handler((_ctx, args) => `pong ${args.name ?? "world"}`);
