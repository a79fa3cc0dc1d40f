import { createShard, createWorker } from "@svc/server";
import { Hono } from "hono";
import { functions } from "../svc/_generated/functions.ts";
import schema from "../svc/schema.ts";
import { PlainRows } from "./plain-rows.ts";

export { PlainRows };
export const Shard = createShard({ schema, functions });

interface Env {
  PLAIN: DurableObjectNamespace<PlainRows>;
}

const svc = createWorker<Env>({ shardDO: "SHARD", functions });

/** The baseline a user would write by hand: Hono routes calling the Durable Object directly. */
const hono = new Hono<{ Bindings: Env }>()
  .post("/hono/seed", async (c) => c.json(await c.env.PLAIN.getByName("bench").seed()))
  .get("/hono/row/:id", async (c) =>
    c.json(await c.env.PLAIN.getByName("bench").getRow(c.req.param("id"))),
  );

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
    return new URL(request.url).pathname.startsWith("/hono/")
      ? hono.fetch(request, env, ctx)
      : svc.fetch(request, env, ctx);
  },
};
