#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
import { parseArgs } from "node:util";
import { ADMIN_COMMANDS, runAdminCommand } from "./commands/admin.ts";
import { LOGS_USAGE, logsCommand } from "./commands/logs.ts";
import { SVC_VERSION } from "./version.ts";

const USAGE = `svc — the svc command line

Usage:
  svc codegen [--app <dir>] [--check]   generate svc/_generated/* (--check: fail if stale)
  svc dev [--app <dir>] [--json] [-- <wrangler dev args>]
                                        codegen on every change under svc/, and wrangler dev
                                        (8787, or a free port; one line per call, --json: JSON)
  svc migrate [--app <dir>] [--auth <module>] [--check]
                                        write the next D1 migration for the auth schema
                                        (--auth: module exporting \`auth\`, default src/auth.ts)

Admin commands, against a running app (--url or SVC_URL, else the svc dev running for
--app <dir> (default .), else http://127.0.0.1:8787; --admin-token or SVC_ADMIN_TOKEN, else
for a local dev server its .dev.vars):
  svc shards list [--search <text>] [--limit <n>] [--json]
                                        the shards the registry knows, in key order
  svc shards show <key> [--json]        one shard: documents per table, size, schema version
  svc shards delete <key> [--confirm <key>]
                                        delete every document of a shard (type the key again)
  svc backup <key> [-o <file>]          export a shard as NDJSON (default <key>.ndjson; - for stdout)
  svc backup <key> --bucket [--files]   back a shard up to the app's R2 bucket now (--files: with
                                        the bytes of its stored files, not only their metadata)
  svc backups [--shard <key>] [--json]  the backups in the app's R2 bucket
  svc restore <key> <file>              import a backup file (- for stdin) into an empty shard
  svc restore <key> --backup <id>       restore a backup from the R2 bucket into an empty shard
  svc restore <key> --from <shard> [--at <time>]
                                        restore <shard>'s newest R2 backup taken at or before <time>
  svc migrations status [--search <text>] [--json]
                                        each migration over every shard: done, running, failed
  svc migrations run <name> [--dry-run] [--search <text>]
                                        start a migration in every shard and follow it (exit 1
                                        if a document failed); --dry-run: what it would change
  svc files list <key> [--json]         a shard's files, with the documents that reference them
  svc files get <key> <storage id> [-o <file>]
                                        download a file (default <storage id>; - for stdout)
  svc files put <key> <file>            store a file in a shard; prints its storage id
  svc files rm <key> <storage id>       delete a file (metadata and bytes)
  svc schedules list <key> [--state <s>] [--function <path>] [--user <id>] [--limit <n>] [--json]
                                        a shard's scheduled jobs, by due time
  svc schedules cancel <key> [<id>...] [--function <path>] [--user <id>] [--all]
                                        cancel pending jobs: by id, by filter, or all
  svc schedules list --all-shards [--search <text>] [--state <s>] [--function <path>] [--user <id>] [--limit <n>] [--json]
                                        every shard's jobs (each shard's first <n>, 20 by default);
                                        exit 1 if a shard failed
  svc schedules cancel --all-shards (--function <path> | --user <id> | --all) [--search <text>]
                                        cancel pending jobs a filter selects in every shard
${LOGS_USAGE}

  svc --version                         the svc version
  svc help                              this text
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "logs") return logsCommand(rest);
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      app: { type: "string", default: "." },
      check: { type: "boolean", default: false },
      auth: { type: "string", default: "src/auth.ts" },
      url: { type: "string" },
      "admin-token": { type: "string" },
      search: { type: "string" },
      limit: { type: "string" },
      json: { type: "boolean" },
      output: { type: "string", short: "o" },
      confirm: { type: "string" },
      bucket: { type: "boolean" },
      files: { type: "boolean" },
      backup: { type: "string" },
      shard: { type: "string" },
      from: { type: "string" },
      at: { type: "string" },
      "dry-run": { type: "boolean" },
      state: { type: "string" },
      function: { type: "string" },
      user: { type: "string" },
      all: { type: "boolean" },
      "all-shards": { type: "boolean" },
    },
    allowPositionals: true,
  });
  if (command !== undefined && ADMIN_COMMANDS.has(command)) {
    return runAdminCommand(command, positionals, values);
  }
  switch (command) {
    // Imported when used: codegen, dev and migrate load wrangler, miniflare and esbuild (seconds),
    // which the admin commands and --version never need.
    case "codegen": {
      const { codegen } = await import("./commands/codegen.ts");
      const result = await codegen({ appDir: values.app, check: values.check });
      return values.check && result.changed.length > 0 ? 1 : 0;
    }
    case "migrate": {
      const { migrate } = await import("./commands/migrate.ts");
      const result = await migrate({
        appDir: values.app,
        authModule: values.auth,
        check: values.check,
      });
      return values.check && result.file !== null ? 1 : 0;
    }
    case "dev": {
      const { dev } = await import("./commands/dev.ts");
      return dev({ appDir: values.app, wranglerArgs: positionals, json: values.json === true });
    }
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
