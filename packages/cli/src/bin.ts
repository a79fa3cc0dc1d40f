#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
import { parseArgs } from "node:util";
import { codegen } from "./commands/codegen.ts";
import { dev } from "./commands/dev.ts";
import { LOGS_USAGE } from "./commands/logs.ts";
import { migrate } from "./commands/migrate.ts";
import { SVC_VERSION } from "./version.ts";

const USAGE = `svc — the svc command line

Usage:
  svc codegen [--app <dir>] [--check]   generate svc/_generated/* (--check: fail if stale)
  svc dev [--app <dir>] [-- <wrangler dev args>]
                                        codegen on every change under svc/, and wrangler dev
  svc migrate [--app <dir>] [--auth <module>] [--check]
                                        write the next D1 migration for the auth schema
                                        (--auth: module exporting \`auth\`, default src/auth.ts)
${LOGS_USAGE}
  svc --version                         the svc version
  svc help                              this text
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "logs") {
    const { logsCommand } = await import("./commands/logs.ts");
    return logsCommand(rest);
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      app: { type: "string", default: "." },
      check: { type: "boolean", default: false },
      auth: { type: "string", default: "src/auth.ts" },
    },
    allowPositionals: true,
  });
  switch (command) {
    case "codegen": {
      const result = await codegen({ appDir: values.app, check: values.check });
      return values.check && result.changed.length > 0 ? 1 : 0;
    }
    case "migrate": {
      const result = await migrate({
        appDir: values.app,
        authModule: values.auth,
        check: values.check,
      });
      return values.check && result.file !== null ? 1 : 0;
    }
    case "dev":
      return dev({ appDir: values.app, wranglerArgs: positionals });
    case "--version":
    case "-v":
      process.stdout.write(`${SVC_VERSION}\n`);
      return 0;
    case undefined:
    case "help":
    case "--help":
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(`svc: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
