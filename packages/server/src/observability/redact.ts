import { clip, RECORD_LIMITS } from "./record.ts";

/** Argument keys whose values are never recorded, even for procedures that opt in. */
const SECRET_KEY =
  /pass(word|phrase)?|secret|token|authori[sz]ation|cookie|api[-_]?key|credential|otp/i;

/** Credentials that can show up in free text: bearer tokens, cookie and authorization values, `name=value` secrets. */
const SECRET_TEXT: readonly [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, "$1 [redacted]"],
  [/\b(cookie|set-cookie|authorization)(["']?\s*[:=]\s*["']?)[^"'\n]+/gi, "$1$2[redacted]"],
  [/\b([\w.-]*(?:session_token|session|token|secret|password)=)[^;&\s"']+/gi, "$1[redacted]"],
];

/**
 * Replaces credentials in free text (console lines, error messages, stacks)
 * with `[redacted]`: bearer tokens, cookie and authorization header values,
 * and `…token=`/`…secret=`/`…password=` pairs. A handler that logs a
 * request's headers still leaves no credential in its record.
 *
 * @example scrubSecrets("auth: Bearer abc.def") // "auth: Bearer [redacted]"
 */
export function scrubSecrets(text: string): string {
  let result = text;
  for (const [pattern, replacement] of SECRET_TEXT) result = result.replace(pattern, replacement);
  return result;
}

function redactValue(value: unknown, depth: number): unknown {
  if (depth > 8) return "[deep]";
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return `[${value.byteLength} bytes]`;
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[key] = SECRET_KEY.test(key) ? "[redacted]" : redactValue(item, depth + 1);
    }
    return copy;
  }
  return typeof value === "string" ? scrubSecrets(value) : value;
}

/**
 * The arguments of a procedure that opted in with `.log({ args: true })`,
 * as a record may hold them: fields named like credentials (`password`,
 * `token`, `secret`, `apiKey`, …) replaced by `[redacted]`, bytes by their
 * length, and anything over {@link RECORD_LIMITS}.argsChars of JSON replaced
 * by a note saying so.
 *
 * @example redactArgs({ email: "a@b.c", password: "x" }) // { email: "a@b.c", password: "[redacted]" }
 */
export function redactArgs(args: unknown): unknown {
  const redacted = redactValue(args ?? {}, 0);
  const json = JSON.stringify(redacted) ?? "null";
  if (json.length > RECORD_LIMITS.argsChars) {
    return { $truncated: `${json.length} characters of arguments`, preview: clip(json, 256) };
  }
  return redacted;
}
