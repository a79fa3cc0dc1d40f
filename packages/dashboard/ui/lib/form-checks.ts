/**
 * The checks a dialog form runs before it sends anything, and the server's
 * validation issues turned into the same per-field messages. A form that
 * sends what the server refuses leaves a "failed" entry in the audit trail
 * for a typo, and shows the operator `body.password: must be…`; these keep
 * both from happening. Pure functions, unit-tested in Node.
 */
import { ApiError } from "../api/client.ts";

/** A message in plain words per form field (`password` → "Use at least 8 characters."). */
export type FieldProblems = Readonly<Partial<Record<string, string>>>;

/** Deliberately loose, as the server's own check: it only catches typos early. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A password the server's length rule accepts, or what is wrong with it. */
export function passwordProblem(
  password: string,
  length: { min: number; max: number },
): string | undefined {
  if (password.length < length.min) return `Use at least ${length.min} characters.`;
  if (password.length > length.max) return `Use at most ${length.max} characters.`;
  return undefined;
}

/** An email address, or what is wrong with it. */
export function emailProblem(email: string): string | undefined {
  if (email.trim() === "") return "Enter an email address.";
  if (!EMAIL.test(email.trim())) return "Enter an email address like ann@example.com.";
  return undefined;
}

/** A value that must not be blank, or a request for it (`what`: "a name"). */
export function requiredProblem(value: string, what: string): string | undefined {
  return value.trim() === "" ? `Enter ${what}.` : undefined;
}

/** A `datetime-local` value later than `now`, or what is wrong with it. */
export function futureProblem(local: string, now: number = Date.now()): string | undefined {
  if (local === "") return "Pick a date and time.";
  const at = new Date(local).getTime();
  if (Number.isNaN(at)) return "Pick a date and time.";
  return at <= now ? "Pick a time in the future." : undefined;
}

/** Only the problems that are there, so `Object.keys` tells whether a form may be sent. */
export function problemsOf(problems: Record<string, string | undefined>): FieldProblems {
  return Object.fromEntries(
    Object.entries(problems).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

function sentence(message: string): string {
  const text = message.trim();
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

function fieldOf(path: string, fields: readonly string[]): string | undefined {
  const field = path.startsWith("body.") ? path.slice("body.".length) : path;
  return fields.includes(field) ? field : undefined;
}

/**
 * The server's `VALIDATION_FAILED` issues that belong to one of the form's
 * `fields` (`body.name` → `name`), each as a sentence for that field.
 */
export function serverProblems(error: Error | null, fields: readonly string[]): FieldProblems {
  if (!(error instanceof ApiError)) return {};
  const problems: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = fieldOf(issue.path, fields);
    if (field !== undefined && problems[field] === undefined) {
      problems[field] = sentence(issue.message);
    }
  }
  return problems;
}

/**
 * The error to show at the foot of the form: `null` when every issue it
 * carries is already shown at its field, else the error itself.
 */
export function footError(error: Error | null, fields: readonly string[]): Error | null {
  if (!(error instanceof ApiError) || error.issues.length === 0) return error;
  const placed = error.issues.every((issue) => fieldOf(issue.path, fields) !== undefined);
  return placed ? null : error;
}
