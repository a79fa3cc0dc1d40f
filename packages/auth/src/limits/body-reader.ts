import { SvcError } from "@svc/server";
import { decodeUtf8, readBodyBytes } from "@svc/server/internal";

/**
 * How better-auth (through better-call 1.4's `getBody`) turns a body into
 * `ctx.body`, decided from the `content-type` header in better-call's order:
 * `json` when it matches `application/…json` at its start, else `form` when it
 * contains `application/x-www-form-urlencoded`, else `multipart` when it
 * contains `multipart/form-data`, else `other` (a string, bytes or a stream:
 * never an object, so no body schema of an endpoint accepts it).
 */
export type AuthBodyEncoding = "none" | "json" | "form" | "multipart" | "other";

/** A request body read once: the bytes to forward, and the fields better-auth will see. */
export interface AuthBody {
  bytes: Uint8Array;
  encoding: AuthBodyEncoding;
  /**
   * The body as better-auth parses it when that is a record of fields (JSON
   * object, form, multipart), else `undefined`. Form values are strings;
   * multipart values strings or files; JSON values anything.
   */
  fields: Readonly<Record<string, unknown>> | undefined;
}

// better-call's own test, kept verbatim so both sides choose the same parser.
const JSON_CONTENT_TYPE = /^application\/([a-z0-9.+-]*\+)?json/i;
const FORM = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data";

/** The encoding better-call picks for a `content-type` value. */
function encodingOf(contentType: string, hasBody: boolean): AuthBodyEncoding {
  if (!hasBody) return "none";
  const normalized = contentType.toLowerCase();
  if (JSON_CONTENT_TYPE.test(normalized)) return "json";
  if (normalized.includes(FORM)) return "form";
  if (normalized.includes(MULTIPART)) return "multipart";
  return "other";
}

/**
 * The media type an encoding must be sent as: a `content-type` that makes
 * better-call parse a body as JSON, form or multipart while naming something
 * else (`text/plain, application/x-www-form-urlencoded`, `application/json-seq`)
 * is refused, so no header trick can make the two parsers disagree.
 */
function isCanonical(encoding: AuthBodyEncoding, contentType: string): boolean {
  const essence = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  if (encoding === "json") return /^application\/([a-z0-9.+-]*\+)?json$/.test(essence);
  if (encoding === "form") return essence === FORM;
  if (encoding === "multipart") return essence === MULTIPART;
  return true;
}

/** better-call's form reading: the last value of a repeated key wins. */
function fieldsOfForm(form: FormData, encoding: "form" | "multipart"): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  form.forEach((value, key) => {
    fields[key] = encoding === "form" ? value.toString() : value;
  });
  return fields;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The one reader of `/api/auth/*` bodies: reads the body under the cap
 * (`413`), refuses invalid UTF-8 (`400`), and parses it the way better-auth
 * will (same decision as better-call, same platform parsers: `Request.json()`
 * and `Request.formData()` over the same bytes and `content-type`), so every
 * limit and field cap sees exactly the fields better-auth acts on, whatever
 * the encoding. A `content-type` that smuggles one encoding under another
 * name, or a form or multipart body the platform cannot parse (better-auth
 * would answer 500), is `400 BAD_REQUEST`, empty bodies included, and so is
 * JSON that is not an object. Malformed JSON is left to better-auth (its own 400).
 *
 * @example
 * ```ts
 * const { bytes, fields } = await readAuthBody(request, DEFAULT_AUTH_MAX_BODY_BYTES);
 * fields?.email; // the same value better-auth's `ctx.body.email` will hold
 * ```
 */
export async function readAuthBody(request: Request, maxBytes: number): Promise<AuthBody> {
  const bytes = await readBodyBytes(request, maxBytes);
  const contentType = request.headers.get("content-type") ?? "";
  // better-call parses whenever a body stream exists, even an empty one (an
  // empty multipart body made better-auth answer 500).
  const encoding = encodingOf(contentType, request.body !== null);
  if (encoding === "none") return { bytes, encoding, fields: undefined };
  decodeUtf8(bytes);
  if (!isCanonical(encoding, contentType)) {
    throw new SvcError(
      "BAD_REQUEST",
      `The content type "${contentType.slice(0, 100)}" is ambiguous; send application/json or application/x-www-form-urlencoded.`,
    );
  }
  if (encoding === "other") return { bytes, encoding, fields: undefined };
  const copy = new Request("https://svc.invalid/", {
    method: "POST",
    headers: { "content-type": contentType },
    body: bytes,
  });
  if (encoding === "json") {
    let json: unknown;
    try {
      json = await copy.json();
    } catch {
      return { bytes, encoding, fields: undefined };
    }
    // No endpoint takes anything else, and plugin hooks read `ctx.body.x`
    // before better-auth validates: `null` made them throw (500).
    if (!isRecord(json)) {
      throw new SvcError("BAD_REQUEST", "The request body must be a JSON object.");
    }
    return { bytes, encoding, fields: json };
  }
  let form: FormData;
  try {
    form = await copy.formData();
  } catch {
    throw new SvcError("BAD_REQUEST", "The form body cannot be parsed.");
  }
  return { bytes, encoding, fields: fieldsOfForm(form, encoding) };
}
