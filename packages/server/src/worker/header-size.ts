import { SvcError } from "../errors/svc-error.ts";

/** Default cap on the total size of request headers on `/_svc/*`. */
export const DEFAULT_MAX_HEADER_BYTES = 64 * 1024;

/**
 * The running total of the walk in progress. `forEach` runs its callback
 * synchronously and nothing else runs meanwhile, so one module-level sum
 * serves every request: a closure over a local sum was one more object per
 * request for the garbage collector.
 */
let walked = 0;

function addHeaderBytes(value: string, name: string): void {
  walked += name.length + value.length;
}

/**
 * Refuses requests whose headers add up to more than `maxBytes` (names plus
 * values). Nothing svc reads needs more, and a cap keeps a hostile client from
 * making every layer below parse and copy megabytes of header.
 *
 * @example refuseHugeHeaders(request, 64 * 1024); // throws BAD_REQUEST above 64 KiB of headers
 */
export function refuseHugeHeaders(request: Request, maxBytes: number): void {
  // `forEach`, not `for…of`: one call into the runtime instead of an iterator
  // object and an entry array per header (this runs on every request and
  // showed up in the REST read's CPU profile). No runtime API tells a
  // request's header size without the walk.
  walked = 0;
  request.headers.forEach(addHeaderBytes);
  if (walked > maxBytes)
    throw new SvcError("BAD_REQUEST", `The request headers are larger than ${maxBytes} bytes.`);
}
