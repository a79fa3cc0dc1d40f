import { type AnyValue, SeverityNumber } from "@opentelemetry/api-logs";
import { resourceFromAttributes } from "@opentelemetry/resources";
import type { ReadableLogRecord } from "@opentelemetry/sdk-logs";
import type { CallRecord } from "../observability/record.ts";

/** The OpenTelemetry instrumentation scope of svc's call records. */
const SCOPE = { name: "svc", version: "0.1.0" } as const;

type Attributes = Record<string, AnyValue>;

function hrTime(ms: number): [number, number] {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

function severityOf(status: number): { number: SeverityNumber; text: string } {
  if (status >= 500) return { number: SeverityNumber.ERROR, text: "ERROR" };
  if (status >= 400) return { number: SeverityNumber.WARN, text: "WARN" };
  return { number: SeverityNumber.INFO, text: "INFO" };
}

/**
 * A call record's attributes, named by OpenTelemetry's semantic conventions
 * where one exists (`http.route`, `http.request.method`,
 * `http.response.status_code`, `error.type`, `exception.*`, `enduser.id`,
 * `messaging.*`) and `svc.*` otherwise.
 */
function attributesOf(record: CallRecord): Attributes {
  const attributes: Attributes = {
    "svc.request_id": record.requestId,
    "svc.entry": record.entry,
    "http.route": record.route,
    "http.response.status_code": record.status,
    "svc.duration_ms": record.durationMs,
    "http.request.body.size": record.bytesIn,
    "http.response.body.size": record.bytesOut,
    "svc.caller.kind": record.caller.kind,
  };
  if (record.method !== null) attributes["http.request.method"] = record.method;
  if (record.shardKey !== null) attributes["svc.shard_key"] = record.shardKey;
  if ("id" in record.caller) attributes["svc.caller.id"] = record.caller.id;
  if (record.caller.kind === "user") attributes["enduser.id"] = record.caller.id;
  if (record.code !== null) attributes["error.type"] = record.code;
  if (record.error !== null) {
    attributes["exception.message"] = record.error.message;
    if (record.error.stack !== null) attributes["exception.stacktrace"] = record.error.stack;
  }
  if (record.logs.length > 0) {
    attributes["svc.logs"] = record.logs.map(
      (line) => `[${line.level}] +${line.at}ms ${line.message}`,
    );
  }
  if (record.logsDropped > 0) attributes["svc.logs_dropped"] = record.logsDropped;
  if (record.args !== undefined) attributes["svc.args"] = JSON.stringify(record.args);
  if (record.queue !== undefined) {
    attributes["messaging.destination.name"] = record.queue.queue;
    if (record.queue.messageId !== null)
      attributes["messaging.message.id"] = record.queue.messageId;
    attributes["messaging.batch.message_count"] = record.queue.messages;
    attributes["svc.queue.attempt"] = record.queue.attempt;
    attributes["svc.queue.dead_lettered"] = record.queue.deadLettered;
  }
  if (record.cron !== undefined) {
    attributes["svc.cron.job"] = record.cron.job;
    attributes["svc.cron.schedule"] = record.cron.schedule;
  }
  return attributes;
}

/**
 * Turns call records into the SDK's log records, which the OpenTelemetry
 * OTLP serializers encode: one log record per call (event name `svc.call`,
 * severity from the status, the one-line summary as body), all under one
 * resource (`service.name`) and the `svc` scope.
 */
export function toLogRecords(
  records: readonly CallRecord[],
  resourceAttributes: Record<string, string>,
  now = Date.now(),
): ReadableLogRecord[] {
  const resource = resourceFromAttributes(resourceAttributes);
  const observed = hrTime(now);
  return records.map((record) => {
    const severity = severityOf(record.status);
    const code = record.code === null ? "" : ` ${record.code}`;
    return {
      hrTime: hrTime(Date.parse(record.time)),
      hrTimeObserved: observed,
      severityNumber: severity.number,
      severityText: severity.text,
      body: `${record.entry} ${record.route} ${record.status}${code} ${Math.round(record.durationMs)}ms`,
      eventName: "svc.call",
      resource,
      instrumentationScope: SCOPE,
      attributes: attributesOf(record),
      droppedAttributesCount: 0,
    };
  });
}
