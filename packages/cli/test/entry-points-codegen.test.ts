import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codegen } from "../src/index.ts";

const quiet = () => {};
const fixtureApp = path.resolve(import.meta.dirname, "fixture-app");
const scratch: string[] = [];

/** A throwaway copy of the fixture app (inside the repo, so `@svc/server` resolves) plus `files`. */
async function appWith(files: Record<string, string>, wrangler?: object): Promise<string> {
  const dir = await mkdtemp(path.join(import.meta.dirname, ".tmp-"));
  scratch.push(dir);
  await cp(fixtureApp, dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, file), text);
  if (wrangler) {
    const config = JSON.parse(await readFile(path.join(dir, "wrangler.jsonc"), "utf8"));
    await writeFile(path.join(dir, "wrangler.jsonc"), JSON.stringify({ ...config, ...wrangler }));
  }
  return dir;
}

afterEach(async () => {
  for (const dir of scratch.splice(0)) await rm(dir, { recursive: true, force: true });
});

const JOBS = `import { internalMutation, internalQuery } from "@svc/server";
export const sweep = internalMutation.handler(async () => null);
export const peek = internalQuery.handler(async () => null);
`;
// Uses internal.* before api.ts knows about jobs: discovery must not need a previous run.
const CRONS = (target: string) => `import { cronJobs } from "@svc/server";
import { internal } from "./_generated/api.ts";
const crons = cronJobs();
crons.add("sweep", "*/10 * * * *", internal.jobs.${target}, {});
export default crons;
`;

describe("svc codegen and the other entry points", () => {
  it("exports http, crons and queues and puts routes with validators into OpenAPI", async () => {
    const dir = await appWith(
      {
        "svc/jobs.ts": `${JOBS}import { defineQueue, v } from "@svc/server";
export const work = defineQueue({ queue: "work", message: v.object({ n: v.number() }) });
export const take = internalMutation.input({ n: v.number() }).handler(async () => null);
`,
        "svc/crons.ts": CRONS("sweep"),
        "svc/queues.ts": `import { queueConsumers } from "@svc/server";
import { internal } from "./_generated/api.ts";
import { work } from "./jobs.ts";
export default queueConsumers().consume(work, { run: internal.jobs.take });
`,
        "svc/http.ts": `import { httpAction, httpRouter, v } from "@svc/server";
export default httpRouter()
  .get("/ping/:name", httpAction.input({ loud: v.optional(v.boolean()) }).handler(() => new Response("pong")))
  .post("/hook", httpAction.handler(() => new Response(null, { status: 204 })));
`,
      },
      {
        triggers: { crons: ["*/10 * * * *"] },
        queues: { consumers: [{ queue: "work" }] },
      },
    );
    await codegen({ appDir: dir, log: quiet });
    const functions = await readFile(path.join(dir, "svc/_generated/functions.ts"), "utf8");
    expect(functions).toContain('export { default as http } from "../http.ts";');
    expect(functions).toContain('export { default as crons } from "../crons.ts";');
    expect(functions).toContain('export { default as queues } from "../queues.ts";');
    const openapi = JSON.parse(
      await readFile(path.join(dir, "svc/_generated/openapi.json"), "utf8"),
    );
    expect(openapi.paths["/ping/{name}"].get.parameters).toEqual([
      { name: "name", in: "path", required: true, schema: { type: "string" } },
      expect.objectContaining({ name: "loud", in: "query", required: false }),
    ]);
    expect(openapi.paths["/hook"]).toBeUndefined();
  }, 60_000);

  it("fails with the trigger to add when a schedule is not in wrangler.jsonc", async () => {
    const dir = await appWith({ "svc/jobs.ts": JOBS, "svc/crons.ts": CRONS("sweep") });
    await expect(codegen({ appDir: dir, log: quiet })).rejects.toMatchObject({
      code: "CRON_TRIGGER_MISSING",
      message: expect.stringContaining('"triggers": { "crons": ["*/10 * * * *"] }'),
    });
  }, 60_000);

  it("fails naming the job when it runs the wrong kind of procedure", async () => {
    const dir = await appWith(
      {
        "svc/jobs.ts": JOBS.replace("internalQuery", "internalQuery, stream").concat(
          "export const live = stream.handler(async function* () {});\n",
        ),
        "svc/crons.ts": CRONS("live"),
      },
      { triggers: { crons: ["*/10 * * * *"] } },
    );
    await expect(codegen({ appDir: dir, log: quiet })).rejects.toThrow(
      /cron job sweep cannot run jobs:live, which is a stream/,
    );
  }, 60_000);

  it("fails when a route is under /_svc/", async () => {
    const dir = await appWith({
      "svc/http.ts": `import { httpAction, httpRouter } from "@svc/server";
export default httpRouter().get("/_svc/mine", httpAction.handler(() => new Response("x")));
`,
    });
    await expect(codegen({ appDir: dir, log: quiet })).rejects.toThrow(/under \/_svc\//);
  }, 60_000);
});
