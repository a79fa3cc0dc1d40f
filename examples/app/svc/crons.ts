import { cronJobs } from "@svc/server";
import { internal } from "./_generated/api.ts";

/**
 * The app's cron jobs. Each schedule must also be a trigger in wrangler.jsonc
 * (`svc codegen` checks). Locally, `npm start` runs with scheduled testing on:
 * `curl "http://127.0.0.1:8787/__scheduled?cron=*+*+*+*+*"` fires this one.
 */
const crons = cronJobs();
crons.add("maintenance:sweep", "* * * * *", internal.maintenance.sweep, {});
export default crons;
