import { internalMutation, query, v } from "@svc/server";

export const list = query
  .input({ limit: v.number() })
  .expose({ rest: true })
  .handler(() => []);
export const hidden = internalMutation.handler(() => null);
