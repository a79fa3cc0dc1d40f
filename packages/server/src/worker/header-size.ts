import { SvcError } from "../errors/svc-error.ts";

/** Default cap on the total size of request headers on `/_svc/*`. */
export const DEFAULT_MAX_HEADER_BYTES = 64 * 1024;

/**
 * Refuses requests whose headers add up to more than `maxBytes` (names plus
 * values). Nothing svc reads needs more, and a cap keeps a hostile client from
 * making every layer below parse and copy megabytes of header.
 */
export function refuseHugeHeaders(request: Request, maxBytes: number): void {
  // `forEach`, not `for…of`: one call into the runtime instead of an iterator
  // object and an entry array per header (this ran on every request and
  // showed up in the REST read's CPU profile).
  let total = 0;
  request.headers.forEach((value, name) => {
    total += name.length + value.length;
  });
  if (total > maxBytes)
    throw new SvcError("BAD_REQUEST", `The request headers are larger than ${maxBytes} bytes.`);
}
