import {
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { ERROR_STATUS } from "./errors/error-codes.ts";
import { SvcError } from "./errors/svc-error.ts";

const tracer = trace.getTracer("svc");

/** The API's no-op provider, what the global proxy delegates to until an SDK registers one. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * True once an OpenTelemetry SDK registered a tracer provider. Checked per
 * call (a provider may be registered after this module loaded); without one,
 * dispatch skips span work entirely, which was measurable CPU per request.
 * Exported so a caller builds a span's facts only when a span will be made.
 *
 * @example if (tracingEnabled()) return withDispatchSpan(info, work);
 */
export function tracingEnabled(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NOOP_PROVIDER;
}

/** What a dispatch span records. Never argument values. */
export interface DispatchSpanInfo {
  /** The raw inbound path (`url.path`); may carry ids. */
  urlPath: string;
  /** The templated function path (`http.route`), e.g. `messages:list`; group and alert on this. */
  route: string;
  method: string;
  transport: "rpc" | "rest" | "http";
}

/**
 * Runs one dispatch inside an OpenTelemetry span named `svc <route>` with
 * `url.path`, `http.route`, the method, the transport and the response status.
 * With no SDK registered (the default in workerd) no span is made at all.
 */
export function withDispatchSpan(
  info: DispatchSpanInfo,
  work: () => Promise<Response>,
): Promise<Response> {
  if (!tracingEnabled()) return work();
  return tracer.startActiveSpan(
    `svc ${info.route}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        "url.path": info.urlPath,
        "http.route": info.route,
        "http.request.method": info.method,
        "svc.transport": info.transport,
      },
    },
    async (span: Span) => {
      let status = 500;
      try {
        const response = await work();
        status = response.status;
        return response;
      } catch (error) {
        if (error instanceof SvcError) status = ERROR_STATUS[error.code];
        throw error;
      } finally {
        span.setAttribute("http.response.status_code", status);
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    },
  );
}
