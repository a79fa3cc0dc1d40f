import { env } from "cloudflare:workers";
import { query } from "@svc/server";

// Read at module load: discovery must run where bindings exist (workerd), not in Node.
const greeting = (env as { GREETING: string }).GREETING;
if (!greeting) throw new Error("GREETING binding missing at load time");

export const greet = query.handler(() => greeting);
export const notAProcedure = 42;
