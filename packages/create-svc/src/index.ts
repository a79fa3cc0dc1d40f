#!/usr/bin/env node
/**
 * `npm create svc@latest [dir] [-- --yes]`: scaffolds a new svc app. With a
 * directory and `--yes` it asks nothing; otherwise it asks for what is
 * missing (only on a terminal: without one, missing answers are an error).
 */
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { CreateSvcError, scaffold } from "./scaffold.ts";

const USAGE = `Usage: npm create svc@latest [directory] [-- --yes]

  directory   where to create the app (its base name becomes the app's name)
  --yes, -y   accept the defaults, ask nothing (directory: my-svc-app)
  --help      this text
`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { yes: { type: "boolean", short: "y", default: false }, help: { type: "boolean" } },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  let directory = positionals[0];
  if (directory === undefined && !values.yes) {
    if (!process.stdin.isTTY) {
      throw new CreateSvcError(
        "create-svc: no directory given and no terminal to ask on; pass one (npm create svc@latest my-app -- --yes).",
      );
    }
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    directory = (await prompt.question("Where should the app go? (my-svc-app) ")).trim();
    prompt.close();
  }
  const result = await scaffold({
    targetDir: directory || "my-svc-app",
    onFile: (file) => process.stdout.write(`  wrote ${file}\n`),
  });
  const relative = directory || "my-svc-app";
  process.stdout.write(
    `\nCreated ${result.name} (${result.files.length} files) in ${result.targetDir}\n\n` +
      `  cd ${relative}\n  npm install && npm run dev\n  npm test\n\n` +
      "The dashboard's admin token is SVC_ADMIN_TOKEN in .dev.vars (random, local only).\n",
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
