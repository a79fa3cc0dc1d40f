import { AdminClient, adminConnection } from "../admin-client.ts";
import { SvcCliError } from "../errors.ts";
import { backupsList, backupToBucket, backupToFile } from "./backup.ts";
import { filesGet, filesList, filesPut, filesRemove } from "./files.ts";
import { migrationsDryRun, migrationsRun, migrationsStatus } from "./migrations.ts";
import { restoreFromBucket, restoreFromFile } from "./restore.ts";
import { backupAt } from "./restore-by-date.ts";
import {
  schedulesCancel,
  schedulesCancelAcross,
  schedulesList,
  schedulesListAcross,
} from "./schedules.ts";
import { shardsDelete, shardsList, shardsShow } from "./shards.ts";

/** The flags the admin commands read (parsed by the `svc` bin). */
export interface AdminFlags {
  /** The app's folder, where a running `svc dev` is found. @default "." */
  app?: string | undefined;
  url?: string | undefined;
  "admin-token"?: string | undefined;
  search?: string | undefined;
  limit?: string | undefined;
  json?: boolean | undefined;
  output?: string | undefined;
  confirm?: string | undefined;
  bucket?: boolean | undefined;
  /** `svc backup --bucket --files`: the files' bytes too. */
  files?: boolean | undefined;
  backup?: string | undefined;
  shard?: string | undefined;
  from?: string | undefined;
  at?: string | undefined;
  "dry-run"?: boolean | undefined;
  state?: string | undefined;
  function?: string | undefined;
  user?: string | undefined;
  all?: boolean | undefined;
  /** `svc schedules … --all-shards`: every shard the registry knows. */
  "all-shards"?: boolean | undefined;
}

/** Admin commands the `svc` bin routes here. */
export const ADMIN_COMMANDS = new Set([
  "shards",
  "backup",
  "backups",
  "restore",
  "migrations",
  "files",
  "schedules",
]);

function usage(message: string): SvcCliError {
  return new SvcCliError("BAD_USAGE", `svc: ${message} (svc help)`);
}

/**
 * Runs `svc shards …`, `svc backup`, `svc backups`, `svc restore`, `svc
 * migrations …`, `svc files …` or `svc schedules …` against a
 * running app (local or deployed: `--url` / `SVC_URL`, `--admin-token` /
 * `SVC_ADMIN_TOKEN`). Answers the exit code.
 */
export async function runAdminCommand(
  command: string,
  positionals: string[],
  flags: AdminFlags,
): Promise<number> {
  const client = new AdminClient(
    adminConnection({ url: flags.url, adminToken: flags["admin-token"], appDir: flags.app }),
  );
  const json = flags.json === true;
  switch (command) {
    case "shards": {
      const [sub, key] = positionals;
      if (sub === "list") {
        const limit = flags.limit === undefined ? undefined : Number(flags.limit);
        if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
          throw usage("--limit must be a positive integer");
        await shardsList(client, { search: flags.search, limit, json });
        return 0;
      }
      if (key === undefined)
        throw usage(`svc shards ${sub ?? "<list|show|delete>"} needs a shard key`);
      if (sub === "show") await shardsShow(client, key, { json });
      else if (sub === "delete") await shardsDelete(client, key, { confirm: flags.confirm });
      else throw usage(`unknown subcommand svc shards ${JSON.stringify(sub)}`);
      return 0;
    }
    case "backup": {
      const [key] = positionals;
      if (key === undefined) throw usage("svc backup needs a shard key");
      if (flags.bucket) await backupToBucket(client, key, { files: flags.files });
      else if (flags.files)
        throw usage("--files goes with --bucket (svc backup <key> --bucket --files)");
      else await backupToFile(client, key, { output: flags.output });
      return 0;
    }
    case "backups":
      await backupsList(client, { shard: flags.shard, json });
      return 0;
    case "restore": {
      const [key, file] = positionals;
      if (key === undefined) throw usage("svc restore needs a shard key");
      if (flags.backup !== undefined) await restoreFromBucket(client, key, flags.backup);
      else if (flags.from !== undefined) {
        const backup = await backupAt(client, flags.from, flags.at);
        await restoreFromBucket(client, key, backup.id);
      } else if (file !== undefined) await restoreFromFile(client, key, file);
      else
        throw usage(
          "svc restore <key> needs a backup file (or --backup <id>, or --from <shard> [--at <time>], from the bucket)",
        );
      return 0;
    }
    case "migrations": {
      const [sub, name] = positionals;
      if (sub === "status") {
        await migrationsStatus(client, { search: flags.search, json });
        return 0;
      }
      if (sub !== "run") throw usage(`unknown subcommand svc migrations ${JSON.stringify(sub)}`);
      if (name === undefined) throw usage("svc migrations run needs a migration name");
      if (flags["dry-run"] === true) {
        await migrationsDryRun(client, name, { search: flags.search, json });
        return 0;
      }
      return (await migrationsRun(client, name, { search: flags.search })).ok ? 0 : 1;
    }
    case "files": {
      const [sub, key, target] = positionals;
      if (key === undefined)
        throw usage(`svc files ${sub ?? "<list|get|put|rm>"} needs a shard key`);
      if (sub === "list") {
        await filesList(client, key, { json });
        return 0;
      }
      if (target === undefined)
        throw usage(`svc files ${sub} needs a ${sub === "put" ? "file" : "storage id"}`);
      if (sub === "get") await filesGet(client, key, target, { output: flags.output });
      else if (sub === "put") await filesPut(client, key, target);
      else if (sub === "rm") await filesRemove(client, key, target);
      else throw usage(`unknown subcommand svc files ${JSON.stringify(sub)}`);
      return 0;
    }
    case "schedules": {
      const [sub, ...rest] = positionals;
      if (sub !== "list" && sub !== "cancel")
        throw usage(`unknown subcommand svc schedules ${JSON.stringify(sub)}`);
      const filters = { function: flags.function, user: flags.user };
      const limit = flags.limit === undefined ? undefined : Number(flags.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
        throw usage("--limit must be a positive integer");
      if (flags["all-shards"] === true) {
        if (rest.length > 0)
          throw usage(`svc schedules ${sub} --all-shards takes no shard key or job ids`);
        const across = { ...filters, search: flags.search };
        const { failed } =
          sub === "cancel"
            ? await schedulesCancelAcross(client, { ...across, all: flags.all })
            : await schedulesListAcross(client, { ...across, state: flags.state, limit, json });
        return failed === 0 ? 0 : 1;
      }
      const [key, ...ids] = rest;
      if (key === undefined)
        throw usage(`svc schedules ${sub} needs a shard key (or --all-shards)`);
      if (sub === "cancel") {
        await schedulesCancel(client, key, { ...filters, ids, all: flags.all });
        return 0;
      }
      await schedulesList(client, key, { ...filters, state: flags.state, limit, json });
      return 0;
    }
    default:
      throw usage(`unknown command ${JSON.stringify(command)}`);
  }
}
