#!/usr/bin/env node
/**
 * `npm create svc@latest [dir] [-- --template react] [--yes]`: scaffolds a new
 * svc app. With a directory and `--yes` (or `--template`) it asks nothing;
 * otherwise it asks for what is missing (only on a terminal: without one,
 * missing answers are an error).
 */
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { CreateSvcError, scaffold, type TemplateName } from "./scaffold.ts";

const USAGE = `Usage: npm create svc@latest [directory] [-- --template api|react] [--yes]

  directory        where to create the app (its base name becomes the app's name)
  --template, -t   api: a backend with REST, auth and the admin dashboard (default)
                   react: the same plus a Vite + React UI with sign-in and live notes
  --yes, -y        accept the defaults, ask nothing (directory: my-svc-app, template: api)
  --help           this text
`;

const TEMPLATE_CHOICES = `Templates:
  1) api    a backend: REST API, auth, admin dashboard
  2) react  the same plus a React UI (Vite): sign-in, live notes with optimistic updates
`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      yes: { type: "boolean", short: "y", default: false },
      template: { type: "string", short: "t" },
      help: { type: "boolean" },
    },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  let directory = positionals[0];
  let template = values.template as TemplateName | undefined;
  const askDirectory = directory === undefined && !values.yes;
  // Without a terminal the template defaults to api; only a missing directory is an error.
  const askTemplate = template === undefined && !values.yes && process.stdin.isTTY === true;
  if (askDirectory || askTemplate) {
    if (!process.stdin.isTTY) {
      throw new CreateSvcError(
        "create-svc: no directory given and no terminal to ask on; pass one (npm create svc@latest my-app -- --yes).",
      );
    }
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    if (askDirectory)
      directory = (await prompt.question("Where should the app go? (my-svc-app) ")).trim();
    if (askTemplate) {
      process.stdout.write(TEMPLATE_CHOICES);
      const answer = (await prompt.question("Which template? (1) ")).trim();
      template = answer === "2" || answer === "react" ? "react" : "api";
    }
    prompt.close();
  }
  const result = await scaffold({
    targetDir: directory || "my-svc-app",
    ...(template === undefined ? {} : { template }),
    onFile: (file) => process.stdout.write(`  wrote ${file}\n`),
  });
  const relative = directory || "my-svc-app";
  const ui = result.template === "react" ? " (the UI and the API on one origin)" : "";
  process.stdout.write(
    `\nCreated ${result.name} from the ${result.template} template (${result.files.length} files) in ${result.targetDir}\n\n` +
      `  cd ${relative}\n  npm install && npm run dev${ui}\n  npm test\n\n` +
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
