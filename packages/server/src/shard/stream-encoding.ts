import { normalizeError } from "../errors/normalize.ts";
import { toProblem } from "../errors/problem.ts";
import { stringifyJson } from "../values/json-codec.ts";

/** Media type of stream responses: one JSON object per line. */
export const NDJSON_CONTENT_TYPE = "application/x-ndjson";

/**
 * Encodes stream items as NDJSON lines: `{"value":…}` per item, then
 * `{"done":true}`, or `{"error":<problem details>}` if the generator throws.
 * A missing final line tells the client the stream was cut.
 */
export function encodeStream(
  items: AsyncIterable<unknown>,
  check: (item: unknown) => unknown,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = items[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const step = await iterator.next();
        if (step.done) {
          controller.enqueue(encoder.encode('{"done":true}\n'));
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(`${stringifyJson({ value: check(step.value) })}\n`));
      } catch (thrown) {
        controller.enqueue(
          encoder.encode(`${JSON.stringify({ error: toProblem(normalizeError(thrown)) })}\n`),
        );
        controller.close();
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
