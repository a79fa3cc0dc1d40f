/**
 * Reading a cron expression the way Cloudflare fires it (UTC, five fields):
 * when it next fires and what it says in words, for the admin API's job list.
 * Cloudflare's weekdays are `1`–`7` for Sunday–Saturday (or `SUN`–`SAT`);
 * `L`, `W` and `#` are described as written and have no computed next run.
 */

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const WEEKDAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];
const MONTH_WORDS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const WEEKDAY_WORDS = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
];

/** One field's range and how its names and numbers map to values. */
interface FieldKind {
  min: number;
  max: number;
  /** A token's value (`"MON"`, `"5"`), or undefined when it is not one. */
  value(token: string): number | undefined;
}

function numberIn(min: number, max: number) {
  return (token: string) => {
    if (!/^\d{1,2}$/.test(token)) return undefined;
    const n = Number(token);
    return n >= min && n <= max ? n : undefined;
  };
}

const MINUTE: FieldKind = { min: 0, max: 59, value: numberIn(0, 59) };
const HOUR: FieldKind = { min: 0, max: 23, value: numberIn(0, 23) };
const DAY: FieldKind = { min: 1, max: 31, value: numberIn(1, 31) };
const MONTH: FieldKind = {
  min: 0,
  max: 11,
  value: (token) => {
    const named = MONTHS.indexOf(token.toUpperCase());
    if (named >= 0) return named;
    const n = numberIn(1, 12)(token);
    return n === undefined ? undefined : n - 1;
  },
};
const WEEKDAY: FieldKind = {
  min: 0,
  max: 6,
  value: (token) => {
    const named = WEEKDAYS.indexOf(token.toUpperCase());
    if (named >= 0) return named;
    // Cloudflare counts 1 (Sunday) to 7 (Saturday); a 0 is taken as Sunday too.
    const n = numberIn(0, 7)(token);
    return n === undefined ? undefined : Math.max(n - 1, 0);
  },
};

/** The values a field allows, or undefined for a field this reader does not compute (`L`, `W`, `#`). */
function valuesOf(field: string, kind: FieldKind): Set<number> | undefined {
  const values = new Set<number>();
  for (const part of field.split(",")) {
    const [range = "", stepText] = part.split("/");
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) return undefined;
    let from: number | undefined;
    let to: number | undefined;
    if (range === "*" || range === "?") {
      from = kind.min;
      to = kind.max;
    } else if (range.includes("-")) {
      const [a = "", b = ""] = range.split("-");
      from = kind.value(a);
      to = kind.value(b);
    } else {
      from = kind.value(range);
      to = stepText === undefined ? from : kind.max;
    }
    if (from === undefined || to === undefined || from > to) return undefined;
    for (let n = from; n <= to; n += step) values.add(n);
  }
  return values;
}

/** A parsed expression: the allowed values of each field. */
interface Parsed {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Day of month and weekday both restricted: either one matching is enough (as cron does). */
  eitherDay: boolean;
}

function parse(schedule: string): Parsed | undefined {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) return undefined;
  const [minute = "", hour = "", day = "", month = "", weekday = ""] = fields;
  const minutes = valuesOf(minute, MINUTE);
  const hours = valuesOf(hour, HOUR);
  const days = valuesOf(day, DAY);
  const months = valuesOf(month, MONTH);
  const weekdays = valuesOf(weekday, WEEKDAY);
  if (!minutes || !hours || !days || !months || !weekdays) return undefined;
  const any = (field: string) => field === "*" || field === "?";
  return { minutes, hours, days, months, weekdays, eitherDay: !any(day) && !any(weekday) };
}

function dayMatches(parsed: Parsed, date: Date): boolean {
  const byDay = parsed.days.has(date.getUTCDate());
  const byWeekday = parsed.weekdays.has(date.getUTCDay());
  return parsed.eitherDay ? byDay || byWeekday : byDay && byWeekday;
}

/** Days searched ahead before giving up (a schedule like `0 0 31 2 *` never fires). */
const HORIZON_DAYS = 366 * 5;

/**
 * When `schedule` next fires after `after` (UTC, whole minutes), or null
 * when it uses `L`, `W` or `#` (Cloudflare computes those) or never fires.
 *
 * @example nextCronRun("0 3 * * *", new Date("2026-12-04T16:00:00Z")) // 2026-12-05T03:00:00.000Z
 */
export function nextCronRun(schedule: string, after: Date): Date | null {
  const parsed = parse(schedule);
  if (parsed === undefined) return null;
  const start = new Date(Math.floor(after.getTime() / 60_000) * 60_000 + 60_000);
  const day = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()));
  for (let i = 0; i < HORIZON_DAYS; i++, day.setUTCDate(day.getUTCDate() + 1)) {
    if (!parsed.months.has(day.getUTCMonth()) || !dayMatches(parsed, day)) continue;
    for (let hour = 0; hour < 24; hour++) {
      if (!parsed.hours.has(hour)) continue;
      for (let minute = 0; minute < 60; minute++) {
        if (!parsed.minutes.has(minute)) continue;
        const at = new Date(day.getTime() + hour * 3_600_000 + minute * 60_000);
        if (at >= start) return at;
      }
    }
  }
  return null;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A field in words: `every 5`, `1 to 5`, or the listed values named by `name`. */
function fieldWords(field: string, kind: FieldKind, name: (n: number) => string): string {
  return field
    .split(",")
    .map((part) => {
      const [range = "", step] = part.split("/");
      const every = step === undefined ? "" : `every ${step} `;
      if (range === "*" || range === "?") return every === "" ? "every" : every.trim();
      if (range.includes("-")) {
        const [a = "", b = ""] = range.split("-");
        const from = kind.value(a);
        const to = kind.value(b);
        if (from === undefined || to === undefined) return part;
        return `${every}${every ? "from " : ""}${name(from)} to ${name(to)}`;
      }
      const value = kind.value(range);
      if (value === undefined) return part;
      return step === undefined ? name(value) : `${every}from ${name(value)}`;
    })
    .join(", ");
}

function timeWords(minute: string, hour: string): string {
  const single = (field: string, kind: FieldKind) =>
    /^\d{1,2}$/.test(field) ? kind.value(field) : undefined;
  const m = single(minute, MINUTE);
  const hourList = hour.split(",").map((h) => single(h, HOUR));
  if (minute === "*" && hour === "*") return "Every minute";
  if (/^\*\/\d+$/.test(minute) && hour === "*") return `Every ${minute.slice(2)} minutes`;
  if (m !== undefined && hour === "*")
    return m === 0 ? "Every hour, on the hour" : `Every hour at minute ${m}`;
  if (m !== undefined && /^\*\/\d+$/.test(hour))
    return `Every ${hour.slice(2)} hours at minute ${m}`;
  if (m !== undefined && hourList.every((h) => h !== undefined))
    return `At ${hourList.map((h) => `${pad(h as number)}:${pad(m)}`).join(", ")} UTC`;
  const minutes = fieldWords(minute, MINUTE, String);
  const hours = fieldWords(hour, HOUR, String);
  return `At minute ${minutes} of hour ${hours} (UTC)`;
}

/**
 * A cron expression in words, in UTC as Cloudflare fires it: `"Every
 * minute"`, `"At 03:00 UTC, every day"`, `"At 07:10 UTC, Monday to
 * Friday"`. A field it cannot read (`L`, `W`, `#`) is quoted as written.
 *
 * @example describeCronSchedule("*\/5 * * * *") // "Every 5 minutes"
 */
export function describeCronSchedule(schedule: string): string {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) return schedule;
  const [minute = "", hour = "", day = "", month = "", weekday = ""] = fields;
  const any = (field: string) => field === "*" || field === "?";
  const parts = [timeWords(minute, hour)];
  const everyDay = any(day) && any(weekday);
  if (everyDay && (minute !== "*" || hour !== "*") && /^\d/.test(hour)) parts.push("every day");
  if (!any(day)) {
    const words = valuesOf(day, DAY) ? fieldWords(day, DAY, String) : `“${day}”`;
    parts.push(`on day ${words} of the month`);
  }
  if (!any(weekday)) {
    const words = valuesOf(weekday, WEEKDAY)
      ? fieldWords(weekday, WEEKDAY, (n) => WEEKDAY_WORDS[n] ?? String(n))
      : `weekday “${weekday}”`;
    parts.push(any(day) ? `on ${words}` : `or on ${words}`);
  }
  if (!any(month)) {
    const words = valuesOf(month, MONTH)
      ? fieldWords(month, MONTH, (n) => MONTH_WORDS[n] ?? String(n))
      : `“${month}”`;
    parts.push(`in ${words}`);
  }
  return parts.join(", ");
}
