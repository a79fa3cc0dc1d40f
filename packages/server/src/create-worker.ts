import { backgroundHandlers } from "./create-worker/background.ts";
import { checkOptions } from "./create-worker/check-options.ts";
import type { SvcWorker, WorkerOptions } from "./create-worker/options.ts";
import { routeTable } from "./create-worker/route-table.ts";
import { workerRuntime } from "./create-worker/runtime-of.ts";
import { backupsOptionOf } from "./data-admin/scheduled-backups.ts";
import { SvcError } from "./errors/svc-error.ts";
import { problemResponse } from "./http/problem-response.ts";
import { requestUrl } from "./http/request-url.ts";
import { handleHttpAction } from "./http-actions/handle.ts";
import { noteIsolateRequest } from "./migrations/isolate-requests.ts";
import { callScopeOf, noteCall, runInScope } from "./observability/call-scope.ts";
import { CallRecorder } from "./observability/recorder.ts";
import { createAdminGate } from "./worker/admin-gate.ts";
import { DEFAULT_MAX_HEADER_BYTES } from "./worker/header-size.ts";
import { serveMounts } from "./worker/mounts.ts";

export type { SvcWorker, WorkerOptions } from "./create-worker/options.ts";

const RESERVED_PREFIX = "/_svc/";
/** The admin API: app code it runs (auth hooks, email senders) writes into the admin call's record. */
const ADMIN_PREFIX = "/_svc/admin/";

/**
 * Builds the worker's handlers. `fetch`: svc's route table under `/_svc/`
 * (RPC at `POST /_svc/rpc`, REST at `/_svc/rest/*`, live queries at
 * `GET /_svc/ws`, the admin-token gated `/_svc/admin/*` but for the one-time
 * links of `/_svc/admin/auth/link/`, whose code is their credential, and the
 * dashboard; other `/_svc/*` paths are reserved and 404), then the app's
 * HTTP actions, then `options.fetch`. `scheduled` runs the cron jobs and
 * `queue` the queue consumers, both as the service identity. Every call is
 * recorded (`options.logs`). Configuration mistakes throw here, before
 * anything is served.
 *
 * @example
 * ```ts
 * import { crons, functions, http, queues } from "../svc/_generated/functions.ts";
 * export default createWorker({ shardDO: "SHARD", functions, http, crons, queues });
 * ```
 */
export function createWorker<Env = unknown>(options: WorkerOptions<Env>): SvcWorker<Env> {
  checkOptions(options as WorkerOptions<never>);
  const runtime = workerRuntime(options);
  const recorder = runtime.recording === null ? undefined : new CallRecorder(runtime.recording);
  const backups = backupsOptionOf(options.backups);
  const adminGate = createAdminGate(options.adminToken);
  const route = serveMounts(
    routeTable(options, runtime, backups, recorder),
    async (request) => {
      const operator = await adminGate(request);
      noteCall(request, { caller: { kind: "operator", id: operator } });
      return operator;
    },
    options.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES,
  );
  const { http } = options;
  const serveApp = async (request: Request, env: Env, ctx: ExecutionContext, url: URL) => {
    if (http !== undefined) {
      const answered = await handleHttpAction(http, runtime, request, env, url);
      if (answered !== undefined) return answered;
    }
    if (options.fetch) return options.fetch(request, env, ctx);
    return problemResponse(new SvcError("NOT_FOUND", "Not found."));
  };
  // Not `async`: a refusal thrown before a mount answers becomes the problem response here, a
  // rejected answer in `recover`, with no promise and no resumed frame of this function's own.
  const answer = (request: Request, env: Env, ctx: ExecutionContext) => {
    const url = requestUrl(request);
    const { pathname } = url;
    if (!pathname.startsWith(RESERVED_PREFIX)) {
      // App code runs here, in the worker: it runs under the call's scope, for its console lines.
      const scope = callScopeOf(request);
      if (scope === undefined) return serveApp(request, env, ctx, url);
      return runInScope(scope, () => serveApp(request, env, ctx, url));
    }
    try {
      // An admin call runs app code too (an auth hook, an email sender): its lines go to its record.
      const scope = pathname.startsWith(ADMIN_PREFIX) ? callScopeOf(request) : undefined;
      // No named closure on the REST/RPC path: the bundler's keepNames wraps each in `__name`.
      return scope === undefined
        ? route(request, env, url, ctx, pathname)
        : runInScope(scope, async () => route(request, env, url, ctx, pathname));
    } catch (error) {
      return problemResponse(error, { request });
    }
  };
  return {
    ...backgroundHandlers(options, runtime, backups, recorder),
    fetch(request, env, ctx) {
      noteIsolateRequest();
      // The recorder settles the answer and records it in one `then`: no promise of this one's.
      if (recorder !== undefined) return recorder.request(request, env, ctx, answer, recover);
      return Promise.resolve(answer(request, env, ctx)).then(undefined, (error: unknown) =>
        recover(error, request),
      );
    },
  };
}

/**
 * A rejected answer of svc's own (`/_svc/*`) as its problem response; the
 * app's own failure (an HTTP action's, `options.fetch`'s) stays a failure, as
 * the runtime reports it.
 */
function recover(error: unknown, request: Request): Response {
  if (!requestUrl(request).pathname.startsWith(RESERVED_PREFIX)) throw error;
  return problemResponse(error, { request });
}
