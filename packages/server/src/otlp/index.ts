/**
 * `@svc/server/otlp`: a log store drain that sends call records to any
 * OpenTelemetry endpoint over OTLP/HTTP. A subpath of its own, so apps that
 * do not drain never bundle the OpenTelemetry serializers.
 *
 * @example
 * ```ts
 * import { createLogStore } from "@svc/server";
 * import { otlpDrain } from "@svc/server/otlp";
 * export const LogStore = createLogStore<Env>({
 *   drains: (env) => [otlpDrain({ endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT })],
 * });
 * ```
 * @packageDocumentation
 */
export { logsUrlOf, type OtlpDrainOptions, otlpDrain, parseOtlpHeaders } from "./drain.ts";
export { toLogRecords } from "./log-records.ts";
