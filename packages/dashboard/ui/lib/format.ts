/**
 * Formatting for people: the API speaks ISO-8601 and raw user-agent strings;
 * the screens show "3 min ago" with the exact time on hover, "Chrome on
 * macOS", "1–25 of 132". Pure functions, so they are unit-tested in Node.
 */

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 minutes ago", "in 2 days", "just now" relative to `now`. */
export function relativeTime(iso: string, now: number = Date.now(), locale?: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.round((at - now) / 1000);
  if (Math.abs(seconds) < 45) return "just now";
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(Math.round(seconds / 60), "minute");
}

/** "23 Nov 2026, 09:00" in the operator's locale and time zone. */
export function absoluteTime(iso: string, locale?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(at);
}

/** "2026-11-23 09:00:05 UTC": a time as the server and the logs record it, for a hover. */
export function utcTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${at.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** True when the timestamp lies in the past. */
export function isPast(iso: string, now: number = Date.now()): boolean {
  return Date.parse(iso) <= now;
}

/**
 * "26–50 of 132" for a page that starts at `offset`; "1–25 of 10,000+" when
 * the total is a lower bound (`exact: false`, the list's `totalIsExact`).
 */
export function rangeLabel(offset: number, count: number, total: number, exact = true): string {
  // A lower bound never reads below what the pages so far have shown.
  const of = exact
    ? total.toLocaleString("en")
    : `${Math.max(total, offset + count).toLocaleString("en")}+`;
  if (count === 0) return `0 of ${of}`;
  return `${(offset + 1).toLocaleString("en")}–${(offset + count).toLocaleString("en")} of ${of}`;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The first `count` user-perceived characters of `text` (an emoji or "É" as one, never half). */
function firstGraphemes(text: string, count: number): string {
  let taken = "";
  let seen = 0;
  for (const { segment } of graphemes.segment(text)) {
    if (seen === count) break;
    taken += segment;
    seen++;
  }
  return taken;
}

/**
 * Up to two initials for an avatar ("Ada Lovelace" → "AL"; falls back to
 * the email), cut by grapheme so an emoji or a decomposed "É" stays whole.
 */
export function initials(name: string, email: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters =
    words.length >= 2
      ? `${firstGraphemes(words[0]!, 1)}${firstGraphemes(words.at(-1)!, 1)}`
      : firstGraphemes(words[0] ?? email, 2);
  return letters.toUpperCase();
}

const BROWSERS: readonly [RegExp, string][] = [
  [/Edg\//, "Edge"],
  [/OPR\//, "Opera"],
  [/Firefox\//, "Firefox"],
  [/HeadlessChrome\//, "Headless Chrome"],
  [/Chrome\//, "Chrome"],
  [/Safari\//, "Safari"],
  [/curl\//, "curl"],
  [/node|undici/i, "Node.js"],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/iPhone|iPad|iOS/, "iOS"],
  [/Android/, "Android"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Windows/, "Windows"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** "Chrome on macOS" from a user-agent string; the raw string when nothing matches. */
export function describeUserAgent(userAgent: string | null): string {
  if (userAgent === null || userAgent.trim() === "") return "Unknown device";
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent;
}

/** Ban state in words: "Banned permanently", "Banned until 1 Dec 2026, 10:00", or null. */
export function banLabel(
  user: { banned: boolean; banExpires: string | null },
  locale?: string,
): string | null {
  if (!user.banned) return null;
  return user.banExpires === null
    ? "Banned permanently"
    : `Banned until ${absoluteTime(user.banExpires, locale)}`;
}

/** An ISO timestamp `seconds` from `now`, for ban expiries chosen as durations. */
export function isoAfter(seconds: number, now: number = Date.now()): string {
  return new Date(now + seconds * 1000).toISOString();
}

/** One piece of a text split by {@link timesIn}: plain text, or an ISO timestamp (`iso`). */
export interface TextPart {
  text: string;
  iso?: string;
  /** Where the piece starts in the text, as a stable key. */
  at: number;
}

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g;

/**
 * Splits a server-written text ("banned until 2026-12-01T10:00:00.000Z") at
 * its ISO timestamps, so a screen can show them like every other time.
 */
export function timesIn(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(ISO_TIME)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index), at: last });
    parts.push({ text: match[0], iso: match[0], at: match.index });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), at: last });
  return parts;
}

/**
 * A byte count for a progress line, in decimal units as file managers show
 * them: "840 B", "12.4 kB", "2.1 MB".
 *
 * @example
 * ```ts
 * formatBytes(2_100_000); // "2.1 MB"
 * ```
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const [size, unit] = bytes < 1e6 ? [bytes / 1e3, "kB"] : [bytes / 1e6, "MB"];
  return `${size.toLocaleString("en", { maximumFractionDigits: 1 })} ${unit}`;
}
