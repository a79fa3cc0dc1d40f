import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { codegen } from "@svc/cli";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffold } from "../../src/scaffold.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../../..");
const BIN = path.join(ROOT, "node_modules/.bin");
// Inside the repository (and git-ignored): the app resolves @svc/* to this checkout's sources.
const APP = path.resolve(import.meta.dirname, `../../.tmp-react-${process.pid}`);

/** Runs a tool of the repository's install in the app's folder; answers its output. */
async function inApp(tool: string, args: string[]): Promise<string> {
  const { stdout, stderr } = await run(path.join(BIN, tool), args, {
    cwd: APP,
    env: {
      ...process.env,
      PATH: `${BIN}${path.delimiter}${process.env.PATH}`,
      NO_COLOR: "1",
      FORCE_COLOR: "0",
    },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(
      `${tool} ${args.join(" ")} failed:\n${error.stdout ?? ""}\n${error.stderr ?? error.message}`,
    );
  });
  return `${stdout}\n${stderr}`;
}

beforeAll(async () => {
  await scaffold({ targetDir: APP, name: "react-app", template: "react" });
  await codegen({ appDir: APP });
  await inApp("vite", ["build"]);
});

afterAll(async () => {
  await rm(APP, { recursive: true, force: true });
});

// Its worker tests (test/notes.test.ts) are the API template's, run by the release test.
describe("the React template, from this repository's sources", () => {
  it("passes its own browser test in Chromium (live tabs, optimistic updates, sign-out, restart, axe)", async () => {
    const output = await inApp("vitest", ["run", "--config", "vitest.browser.config.ts"]);
    expect(output).toMatch(/Tests\s+6 passed \(6\)/);
  });
});
