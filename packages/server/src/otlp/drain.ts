import { JsonLogsSerializer, ProtobufLogsSerializer } from "@opentelemetry/otlp-transformer";
import { plainConsole } from "../observability/console-capture.ts";
import type { CallRecord } from "../observability/record.ts";
import type { LogDrain } from "../observability/store/drain.ts";
import { toLogRecords } from "./log-records.ts";

/** Options of {@link otlpDrain}. */
export interface OtlpDrainOptions {
  /**
   * The collector's base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`, e.g.
   * `https://otel.example.com`); `/v1/logs` is added unless the URL already
   * ends with it (`OTEL_EXPORTER_OTLP_LOGS_ENDPOINT` style).
   */
  endpoint: string;
  /** Extra request headers, e.g. an API key (`OTEL_EXPORTER_OTLP_HEADERS`, see {@link parseOtlpHeaders}). */
  headers?: Record<string, string>;
  /** `protobuf` (`application/x-protobuf`) or `json` (`application/json`). @default "protobuf" */
  encoding?: "protobuf" | "json";
  /** Resource attributes; `service.name` names the app in the backend. @default { "service.name": "svc-app" } */
  resource?: Record<string, string>;
  /** Records per request. @default 200 */
  batchSize?: number;
  /** The store remembers progress by this name; give two drains different names. @default "otlp" */
  name?: string;
}

/** Statuses OTLP/HTTP says to retry (the specification's list); other 4xx answers are final. */
const RETRYABLE = new Set([408, 429, 502, 503, 504]);

/** The logs URL for an OTLP endpoint: `<endpoint>/v1/logs`, unless it already names it. */
export function logsUrlOf(endpoint: string): string {
  const url = new URL(endpoint);
  if (!url.pathname.endsWith("/v1/logs"))
    url.pathname = `${url.pathname.replace(/\/$/, "")}/v1/logs`;
  return url.toString();
}

/**
 * Parses `OTEL_EXPORTER_OTLP_HEADERS` (`key=value,key2=value2`, values
 * percent-encoded) into a header object; `undefined` or `""` gives `{}`.
 *
 * @example parseOtlpHeaders("x-api-key=abc%3D") // { "x-api-key": "abc=" }
 */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(
      pair.slice(at + 1).trim(),
    );
  }
  return headers;
}

/**
 * A log store drain that sends call records to any OpenTelemetry collector
 * or backend over OTLP/HTTP, as OpenTelemetry log records (one per call),
 * encoded by the OpenTelemetry JS serializers. The store batches and retries
 * (1 s, doubling, at most 5 min); a 2xx answer is delivery, a 408, 429, 502,
 * 503 or 504 (or no answer) is retried, and any other refusal drops the batch
 * with a warning, as OTLP/HTTP prescribes, so one bad batch cannot stall the
 * drain forever.
 *
 * @example
 * ```ts
 * export const LogStore = createLogStore<Env>({
 *   drains: (env) => [otlpDrain({ endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT, headers: { "x-api-key": env.OTEL_KEY } })],
 * });
 * ```
 */
export function otlpDrain(options: OtlpDrainOptions): LogDrain {
  const url = logsUrlOf(options.endpoint);
  const json = options.encoding === "json";
  const resource = { "service.name": "svc-app", ...options.resource };
  return {
    name: options.name ?? "otlp",
    batchSize: options.batchSize ?? 200,
    async send(records: readonly CallRecord[]) {
      const logRecords = toLogRecords(records, resource);
      const serialized = json
        ? JsonLogsSerializer.serializeRequest(logRecords)
        : ProtobufLogsSerializer.serializeRequest(logRecords);
      if (serialized === undefined) throw new Error("the OTLP serializer produced no body");
      const body = new Uint8Array(serialized);
      const response = await fetch(url, {
        method: "POST",
        headers: {
          ...options.headers,
          "content-type": json ? "application/json" : "application/x-protobuf",
        },
        body,
      });
      await response.body?.cancel();
      if (response.ok) return;
      if (RETRYABLE.has(response.status) || response.status >= 500) {
        throw new Error(`the OTLP endpoint answered ${response.status}`);
      }
      plainConsole.warn(
        `svc: the OTLP endpoint refused ${records.length} call record(s) with ${response.status}; they are dropped`,
      );
    },
  };
}
