import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { appForThisFile } from "./harness.ts";

const run = promisify(execFile);
const README = path.resolve(import.meta.dirname, "../../../../README.md");
const DOCUMENTED_ORIGIN = "http://127.0.0.1:8787";

/** `curl` lines of the README's shell blocks with their expected status (`# → 200`). */
async function readmeCurls(): Promise<{ command: string; status: number }[]> {
  const text = await readFile(README, "utf8");
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
  return blocks
    .flatMap((block) => block.split("\n"))
    .filter((line) => line.trimStart().startsWith("curl "))
    .map((line) => {
      const match = /^(.*?)\s+#\s*→\s*(\d{3})\b/.exec(line);
      if (!match) throw new Error(`README curl line without "# → <status>": ${line}`);
      return { command: match[1]!.trim(), status: Number(match[2]) };
    });
}

const app = appForThisFile();

describe("every curl line in the README", () => {
  it("answers the status it documents, as written, against the example app", async () => {
    const curls = await readmeCurls();
    expect(curls.length).toBeGreaterThan(5);
    for (const { command, status } of curls) {
      const live = command.replaceAll(DOCUMENTED_ORIGIN, app.url);
      const { stdout } = await run("bash", ["-c", `${live} -o /dev/null -w '%{http_code}'`], {
        cwd: path.dirname(README),
      });
      expect(Number(stdout.trim().slice(-3)), command).toBe(status);
    }
  });
});
