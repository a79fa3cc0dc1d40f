import { query, v } from "@svc/server";

/** The trivial procedure: `POST /_svc/rpc {"path":"hello:ping"}`. */
export const ping = query
  .input({ name: v.optional(v.string()) })
  .handler((_ctx, args) => `pong ${args.name ?? "world"}`);
