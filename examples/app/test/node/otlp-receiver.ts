import { createServer, type Server } from "node:http";
import path from "node:path";
import protobuf from "protobufjs";

/** One OTLP/HTTP request as the receiver saw it, decoded. */
export interface ReceivedExport {
  status: number;
  contentType: string;
  request: ExportLogsServiceRequest;
}

/** The parts of `ExportLogsServiceRequest` the tests read (protobufjs `toObject`, longs as strings). */
export interface ExportLogsServiceRequest {
  resourceLogs: {
    resource: { attributes: KeyValue[] };
    scopeLogs: {
      scope: { name: string };
      logRecords: {
        timeUnixNano: string;
        severityText: string;
        eventName?: string;
        body: { stringValue: string };
        attributes: KeyValue[];
      }[];
    }[];
  }[];
}

/** An OTLP attribute. */
export interface KeyValue {
  key: string;
  value: { stringValue?: string; intValue?: string; boolValue?: boolean; doubleValue?: number };
}

const PROTO_ROOT = path.resolve(import.meta.dirname, "otlp-proto");

/**
 * A local OTLP/HTTP logs receiver: it decodes every `POST /v1/logs` with the
 * official protobuf definitions (`otlp-proto/`, via protobufjs) and answers
 * with the statuses it is told to (then 200), so a test sees exactly what a
 * collector would, including refusals.
 *
 * @example
 * ```ts
 * const receiver = await startOtlpReceiver([503]); // refuse the first delivery
 * ```
 */
export async function startOtlpReceiver(failFirst: readonly number[] = []): Promise<{
  url: string;
  received: ReceivedExport[];
  stop(): Promise<void>;
}> {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => path.join(PROTO_ROOT, target);
  await root.load("opentelemetry/proto/collector/logs/v1/logs_service.proto");
  const type = root.lookupType("opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest");
  const received: ReceivedExport[] = [];
  const statuses = [...failFirst];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const status = request.url === "/v1/logs" ? (statuses.shift() ?? 200) : 404;
      const contentType = request.headers["content-type"] ?? "";
      const bytes = Buffer.concat(chunks);
      const message = contentType.includes("json")
        ? type.fromObject(JSON.parse(bytes.toString("utf8")))
        : type.decode(bytes);
      const decoded = type.toObject(message, {
        longs: String,
        defaults: false,
      }) as ExportLogsServiceRequest;
      received.push({ status, contentType, request: decoded });
      response.writeHead(status, { "content-type": "application/x-protobuf" });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("no receiver address");
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The value of one attribute of a log record, as text. */
export function attribute(attributes: readonly KeyValue[], key: string): string | undefined {
  const value = attributes.find((entry) => entry.key === key)?.value;
  if (value === undefined) return undefined;
  return String(value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue);
}
