import { type CronJobs, isCronJobs } from "../cron/jobs.ts";
import { type HttpRouter, isHttpRouter } from "../http-actions/router.ts";
import { buildOpenApi, type OpenApiDocument, type OpenApiOptions } from "../openapi/build.ts";
import { isQueueConsumers, type QueueConsumers } from "../queue/consumers.ts";
import {
  type CronManifest,
  cronManifestOf,
  type HttpRouteManifest,
  httpManifestOf,
  manifestOf,
  type ProcedureManifest,
  type QueueManifest,
  queueManifestOf,
  registryFromModules,
} from "./manifest.ts";

/** What `svc codegen` asks the discovery worker for. */
export interface DescribeInput {
  openapi?: OpenApiOptions;
}

/** What the discovery worker answers. */
export interface AppDescription {
  manifest: ProcedureManifest[];
  openapi: OpenApiDocument;
  /** Routes of `svc/http.ts`; `null` when the app has none. */
  http: HttpRouteManifest[] | null;
  /** Jobs of `svc/crons.ts`; `null` when the app has none. */
  crons: CronManifest[] | null;
  /** Consumers of `svc/queues.ts`; `null` when the app has none. */
  queues: QueueManifest[] | null;
}

/** Where each entry point is declared, and what its default export must be. */
const ENTRY_MODULES = {
  http: { check: isHttpRouter, make: "httpRouter()" },
  crons: { check: isCronJobs, make: "cronJobs()" },
  queues: { check: isQueueConsumers, make: "queueConsumers()" },
} as const;

function entryPoint(
  modules: Readonly<Record<string, Record<string, unknown>>>,
  name: keyof typeof ENTRY_MODULES,
): unknown {
  const { check, make } = ENTRY_MODULES[name];
  for (const [namespace, module] of Object.entries(modules)) {
    if (namespace !== name && check(module.default)) {
      throw new Error(
        `svc: svc/${namespace}.ts exports a ${make} by default; it belongs in svc/${name}.ts`,
      );
    }
  }
  const module = Object.hasOwn(modules, name) ? modules[name] : undefined;
  if (module === undefined) return undefined;
  if (!check(module.default)) {
    throw new Error(`svc: svc/${name}.ts must \`export default\` a ${make}`);
  }
  return module.default;
}

/**
 * Describes an app from its modules under `svc/`: the procedures, the HTTP
 * routes of `svc/http.ts`, the jobs of `svc/crons.ts` and the consumers of
 * `svc/queues.ts`. Runs inside workerd during `svc codegen`, so everything is
 * checked by the same code that serves (a route under `/_svc/` fails here).
 */
export function describeApp(
  modules: Readonly<Record<string, Record<string, unknown>>>,
  input: DescribeInput,
): AppDescription {
  const functions = registryFromModules(modules);
  const manifest = manifestOf(functions);
  const router = entryPoint(modules, "http") as HttpRouter | undefined;
  const crons = entryPoint(modules, "crons") as CronJobs | undefined;
  const queues = entryPoint(modules, "queues") as QueueConsumers | undefined;
  const http = router === undefined ? null : httpManifestOf(router);
  return {
    manifest,
    openapi: buildOpenApi(manifest, input.openapi, http ?? []),
    http,
    crons: crons === undefined ? null : cronManifestOf(crons, functions),
    queues: queues === undefined ? null : queueManifestOf(queues, functions),
  };
}
