import { fanOutPage } from "../data-admin/migration-fanout.ts";
import type { BackupsOptions, DataAdminDeps } from "../data-admin/options.ts";
import { DATA_ADMIN_PREFIX, handleDataAdmin } from "../data-admin/serve.ts";
import { SvcError } from "../errors/svc-error.ts";
import { jsonResponse } from "../http/responses.ts";
import { handleLogsAdmin, type LogsAdminDeps } from "../logs-admin/routes.ts";
import { dataAuditSink } from "../model/data-audit.ts";
import { adminRouteOf } from "../observability/admin-route-name.ts";
import { noteCall } from "../observability/call-scope.ts";
import type { CallRecorder, RecordRun } from "../observability/recorder.ts";
import { REST_PREFIX } from "../procedures/rest-routes.ts";
import { handleRest } from "../rest/rest-route.ts";
import { SVC_ADMIN_ROUTES } from "../routes/contract/svc-admin-routes.ts";
import { handleRpc, RPC_PATH } from "../rpc/route.ts";
import { handleSubscribe } from "../rpc/subscribe-route.ts";
import type { ScheduledEndpoint } from "../scheduler/endpoint.ts";
import { handleSchedulesAdmin, SCHEDULES_ADMIN_PREFIX } from "../schedules-admin/routes.ts";
import { filesAdminRoutes } from "../storage/admin-contract.ts";
import { handleFilesAdmin } from "../storage/admin-routes.ts";
import { resolveStorageOptions } from "../storage/options.ts";
import { SUBSCRIPTION_PATH } from "../subscriptions/protocol.ts";
import { DASHBOARD_PREFIX, serveDashboard } from "../worker/dashboard-route.ts";
import type { Mount } from "../worker/mounts.ts";
import type { WorkerRuntime } from "../worker/runtime.ts";
import { serveAdminOpenApi } from "./admin-openapi-route.ts";
import type { WorkerOptions } from "./options.ts";
import { storageMount } from "./storage-mount.ts";

/** Every `/_svc/admin/*` route sits under this prefix, behind the admin token. */
const ADMIN_PREFIX = "/_svc/admin/";
const OPENAPI_PATH = `${SVC_ADMIN_ROUTES.prefix}${SVC_ADMIN_ROUTES.routes.restOpenApi.path}`;
const ADMIN_OPENAPI_PATH = `${SVC_ADMIN_ROUTES.prefix}${SVC_ADMIN_ROUTES.routes.adminOpenApi.path}`;
const AUTH_ADMIN_PREFIX = "/_svc/admin/auth/";
/** One-time links of the admin surface: the code in the path is the credential, not the admin token. */
const AUTH_LINK_PREFIX = "/_svc/admin/auth/link/";

/** The paths `handleLogsAdmin` answers: the logs admin API and the Prometheus endpoint. */
const LOGS_ADMIN_PATHS = ["/_svc/admin/logs", "/_svc/admin/logs/", "/_svc/admin/metrics"];
/** Running a cron job now: served with the logs routes, but recorded as an admin call. */
const CRONS_ADMIN_PREFIX = "/_svc/admin/crons/";

/** An admin call's record: its route, with ids and one-time codes left out. */
function claimAdminCall(request: Request, path: string): void {
  noteCall(request, { entry: "admin", route: adminRouteOf(request.method, path) });
}

function serveOpenApi(request: Request, document: object): Response {
  if (request.method !== "GET") {
    throw new SvcError("METHOD_NOT_ALLOWED", "GET only.", { headers: { allow: "GET" } });
  }
  return jsonResponse(document);
}

/**
 * svc's route table under `/_svc/`, in match order: RPC, subscriptions,
 * REST, file storage (signed URLs are its credential), the one-time admin
 * links (their code is their credential), then the
 * admin-token gated `/_svc/admin/*` (the logs admin API and metrics, the
 * REST OpenAPI document, the whole admin API's OpenAPI document, the data admin, the files admin, the auth admin, and a last gated entry, so an unknown admin path
 * answers 401 without the token and reveals nothing), then the dashboard.
 * A surface the options leave out has no entry: its paths are 404. Every
 * admin call but reads of the call records (a live tail would log itself)
 * is recorded as an `admin` call.
 *
 * @example
 * ```ts
 * const route = serveMounts(routeTable(options, runtime, backups, recorder), adminGate, maxHeaderBytes);
 * ```
 */
export function routeTable<Env>(
  options: WorkerOptions<Env>,
  runtime: WorkerRuntime<Env>,
  backups: Required<BackupsOptions> | undefined,
  recorder?: CallRecorder,
): Mount<Env>[] {
  const { authAdmin, openApiSpec } = options;
  const dataAdmin: DataAdminDeps = {
    namespace: (env) => runtime.namespace(env as Env),
    backups,
    audit: dataAuditSink(authAdmin?.recordDataAction?.bind(authAdmin)),
    studio: {
      functions: options.functions,
      lookupIdentity: authAdmin?.lookupIdentity?.bind(authAdmin),
      timeoutMs: runtime.procedureTimeoutMs,
    },
  };
  const mounts: Mount<Env>[] = [
    { path: RPC_PATH, serve: ({ request, env, url }) => handleRpc(request, env, url, runtime) },
    {
      path: SUBSCRIPTION_PATH,
      serve: ({ request, env, url }) => handleSubscribe(request, env, url, runtime),
    },
    {
      path: REST_PREFIX,
      serve: ({ request, env, url, path }) => handleRest(request, env, url, path, runtime),
    },
    storageMount((env) => runtime.namespace(env), options.storage),
  ];
  const logsDeps: LogsAdminDeps = {
    plan: runtime.recording,
    functions: options.functions,
    crons: options.crons,
    queues: options.queues,
    shard: (env, shardKey) => runtime.shard(env as Env, shardKey),
    timeoutMs: runtime.procedureTimeoutMs,
    audit: dataAdmin.audit,
  };
  const serveLogs: Mount<Env>["serve"] = ({ request, env, url, operator, lifetime }) => {
    // A cron job run now is recorded as its schedule would record it, beside the admin call.
    const record: RecordRun | undefined =
      recorder === undefined
        ? undefined
        : (facts, work) => recorder.service(facts, env, lifetime, work);
    return handleLogsAdmin(request, url, { env, deps: logsDeps, operator, record });
  };
  for (const path of LOGS_ADMIN_PATHS) mounts.push({ path, adminGate: true, serve: serveLogs });
  mounts.push({
    path: CRONS_ADMIN_PREFIX,
    claim: claimAdminCall,
    adminGate: true,
    noStore: true,
    serve: serveLogs,
  });
  const handleLink = authAdmin?.handleLink?.bind(authAdmin);
  if (handleLink !== undefined) {
    mounts.push({
      path: AUTH_LINK_PREFIX,
      claim: claimAdminCall,
      noStore: true,
      serve: ({ request, rest }) => handleLink(request, { path: rest }),
    });
  }
  if (openApiSpec !== undefined) {
    mounts.push({
      path: OPENAPI_PATH,
      claim: claimAdminCall,
      adminGate: true,
      noStore: true,
      serve: ({ request }) => serveOpenApi(request, openApiSpec),
    });
  }
  mounts.push({
    path: ADMIN_OPENAPI_PATH,
    claim: claimAdminCall,
    adminGate: true,
    noStore: true,
    serve: ({ request, url }) =>
      serveAdminOpenApi(request, url, {
        backups: backups !== undefined,
        restOpenApi: openApiSpec !== undefined,
        authAdmin,
      }),
  });
  mounts.push({
    path: DATA_ADMIN_PREFIX,
    claim: claimAdminCall,
    adminGate: true,
    noStore: true,
    serve: ({ request, env, rest, operator }) =>
      handleDataAdmin(request, rest, { env, operator, deps: dataAdmin }),
  });
  const storage = resolveStorageOptions(options.storage);
  mounts.push({
    path: filesAdminRoutes.prefix,
    claim: claimAdminCall,
    adminGate: true,
    noStore: true,
    serve: ({ request, env, url, operator }) =>
      handleFilesAdmin(request, url, {
        env,
        namespace: runtime.namespace(env),
        options: storage,
        operator,
        audit: dataAdmin.audit,
      }),
  });
  mounts.push({
    path: SCHEDULES_ADMIN_PREFIX,
    claim: claimAdminCall,
    adminGate: true,
    noStore: true,
    serve: ({ request, env, rest, operator }) =>
      handleSchedulesAdmin(request, rest, {
        env,
        namespace: dataAdmin.namespace,
        operator,
        audit: dataAdmin.audit,
        fanOut: (fanEnv, range, call) =>
          fanOutPage(dataAdmin.namespace(fanEnv), range, (shard: ScheduledEndpoint) => call(shard)),
      }),
  });
  if (authAdmin !== undefined) {
    mounts.push({
      path: AUTH_ADMIN_PREFIX,
      claim: claimAdminCall,
      adminGate: true,
      noStore: true,
      serve: ({ request, rest, operator }) => authAdmin.handle(request, { path: rest, operator }),
    });
  }
  mounts.push({
    path: ADMIN_PREFIX,
    claim: claimAdminCall,
    adminGate: true,
    serve: () => {
      throw new SvcError("NOT_FOUND", "Not found.");
    },
  });
  const dashboard = authAdmin?.dashboard;
  if (dashboard !== undefined) {
    const serve: Mount<Env>["serve"] = ({ request, url }) =>
      serveDashboard(request, url, dashboard);
    mounts.push({ path: DASHBOARD_PREFIX.slice(0, -1), serve }, { path: DASHBOARD_PREFIX, serve });
  }
  return mounts;
}
