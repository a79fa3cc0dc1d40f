import { INTERNAL_MESSAGE } from "../errors/normalize.ts";
import { SvcError } from "../errors/svc-error.ts";
import { argsFromQuery } from "../rest/query-args.ts";
import { v } from "../values/index.ts";
import { type AnyValidator, type Issue, toValidationIssues } from "../values/validator.ts";
import { readJsonArgs } from "../worker/body.ts";
import { checkShardKey } from "../worker/shard-key.ts";
import {
  backupShardRoute,
  listBackupsRoute,
  restoreShardRoute,
  rewindShardRoute,
} from "./backup-routes.ts";
import type { DataAdminDeps, DataRoute } from "./route.ts";
import { deleteShardRoute, getShardRoute, listShardsRoute } from "./shard-routes.ts";
import { serveStudio } from "./studio/serve.ts";
import { exportShardRoute, importShardRoute } from "./transfer-routes.ts";

/** Where the data routes are mounted. */
export const DATA_ADMIN_PREFIX = "/_svc/admin/data/";

/** Every route under `/_svc/admin/data/` (docs/admin-api.md, "Data"). */
export const DATA_ROUTES: readonly DataRoute[] = [
  listShardsRoute,
  getShardRoute,
  deleteShardRoute,
  exportShardRoute,
  importShardRoute,
  listBackupsRoute,
  backupShardRoute,
  restoreShardRoute,
  rewindShardRoute,
];

/** Largest JSON body of a data route. */
const MAX_JSON_BODY_BYTES = 64 * 1024;
const NO_QUERY = v.object({});

function matchPath(pattern: string, segments: readonly string[]): { key: string } | undefined {
  const parts = pattern.split("/");
  if (parts.length !== segments.length) return undefined;
  let key = "";
  for (const [index, part] of parts.entries()) {
    const segment = segments[index]!;
    if (part === ":key") {
      if (segment === "") return undefined;
      key = segment;
    } else if (part !== segment) return undefined;
  }
  return { key };
}

function decodeKey(raw: string): string {
  if (raw === "") return "";
  let key: string;
  try {
    key = decodeURIComponent(raw);
  } catch {
    throw new SvcError("BAD_REQUEST", "The shard key in the path is not valid percent-encoding.");
  }
  return checkShardKey(key);
}

function validated<T>(root: string, validator: AnyValidator, value: unknown): T {
  const issues: Issue[] = [];
  validator.check(value, { path: [], issues });
  if (issues.length === 0) return value as T;
  const list = toValidationIssues(root, issues);
  throw new SvcError("VALIDATION_FAILED", `${list[0]!.path}: ${list[0]!.message}`, {
    issues: list,
  });
}

/**
 * Answers a request under `/_svc/admin/data/` (the admin gate has already
 * admitted it; `operator` is its token's name): finds the route, validates
 * the path key, query and body against the route's declaration, runs it and
 * records audited actions — refusals included — with the operator.
 *
 * @example await handleDataAdmin(request, env, "shards/room-1", "alice", deps)
 */
export async function handleDataAdmin(
  request: Request,
  env: unknown,
  path: string,
  operator: string,
  deps: DataAdminDeps,
): Promise<Response> {
  const segments = path.split("/");
  const matches = DATA_ROUTES.flatMap((route) => {
    if (route.needsBackups && deps.backups === undefined) return [];
    const match = matchPath(route.path, segments);
    return match === undefined ? [] : [{ route, rawKey: match.key }];
  });
  // The data studio's routes (shards/:key/tables…, shards/:key/run, functions) are declared apart.
  if (matches.length === 0) {
    return serveStudio(request, path, {
      namespace: deps.namespace(env),
      operator,
      audit: deps.audit,
      studio: deps.studio,
    });
  }
  const found = matches.find(({ route }) => route.method === request.method);
  if (found === undefined) {
    const allow = [...new Set(matches.map(({ route }) => route.method))].join(", ");
    throw new SvcError("METHOD_NOT_ALLOWED", `Allowed: ${allow}.`, { headers: { allow } });
  }
  const { route } = found;
  const key = decodeKey(found.rawKey);
  const audit = { detail: null as string | null };
  try {
    const url = new URL(request.url);
    const queryValidator = route.query ?? NO_QUERY;
    const query = validated<never>(
      "query",
      queryValidator,
      argsFromQuery(url.searchParams, route.query?.shape ?? {}),
    );
    const body =
      route.body === undefined || route.body === "ndjson"
        ? (undefined as never)
        : validated<never>(
            "body",
            route.body,
            (await readJsonArgs(
              request,
              MAX_JSON_BODY_BYTES,
              "This route takes a JSON body (content-type: application/json).",
            )) ?? {},
          );
    const response = await route.handle({ request, env, key, query, body, operator, deps, audit });
    if (route.audit !== undefined) {
      await deps.audit({
        operator,
        action: route.audit,
        targetType: "shard",
        targetId: key,
        outcome: "ok",
        detail: audit.detail,
      });
    }
    return response;
  } catch (thrown) {
    if (route.audit !== undefined) {
      const safe = thrown instanceof SvcError && thrown.code !== "INTERNAL";
      await deps.audit({
        operator,
        action: route.audit,
        targetType: "shard",
        targetId: key,
        outcome: "error",
        detail: safe ? thrown.message : INTERNAL_MESSAGE,
      });
    }
    throw thrown;
  }
}
