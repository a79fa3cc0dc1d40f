import { type CapturedLine, currentScope } from "./call-scope.ts";

const LEVELS: readonly CapturedLine["level"][] = ["debug", "log", "info", "warn", "error"];
const INSTALLED: unique symbol = Symbol.for("svc.consoleCapture");
/** On svc's wrapper of a console method: the method it forwards to. */
const FORWARDS_TO: unique symbol = Symbol.for("svc.consoleCapture.forwardsTo");

type ConsoleMethod = ((...args: unknown[]) => void) & { [FORWARDS_TO]?: ConsoleMethod };

/**
 * The console without svc's capture: svc writes its own call lines here, so
 * they never count as a handler's lines. Each call looks the method up then,
 * so whatever else wraps the console (a test's spy, an APM agent) still sees
 * svc's lines; only svc's own wrapper is stepped over.
 */
export const plainConsole: Readonly<Record<CapturedLine["level"], ConsoleMethod>> = (() => {
  const methods = {} as Record<CapturedLine["level"], ConsoleMethod>;
  const target = console as unknown as Record<string, ConsoleMethod>;
  for (const level of LEVELS) {
    methods[level] = (...args: unknown[]) => {
      const current = target[level]!;
      (current[FORWARDS_TO] ?? current).apply(console, args);
    };
  }
  return methods;
})();

function formatArgument(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value !== "object" || value === null) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** One console call's arguments as one line, the way a reader expects (`a b {"c":1}`). */
export function formatConsoleArgs(args: readonly unknown[]): string {
  return args.map(formatArgument).join(" ");
}

/**
 * Wraps `console.debug/log/info/warn/error` once per isolate so that, inside
 * a recorded call, each line is also kept in that call's scope (bounded),
 * found through the line's await chain (`currentScope`, `await-scope.ts`).
 * The line is still printed as before: Workers Logs and `wrangler tail` see it
 * either way. Outside a recorded call the wrapper only forwards.
 *
 * @example
 * ```ts
 * installConsoleCapture();
 * runInScope(scope, () => console.log("hello")); // scope.lines[0].message === "hello"
 * ```
 */
export function installConsoleCapture(): void {
  const target = console as unknown as Record<string | symbol, unknown>;
  if (target[INSTALLED] === true) return;
  for (const level of LEVELS) {
    const forward = target[level] as ConsoleMethod;
    const wrapper: ConsoleMethod = (...args: unknown[]) => {
      // The innermost recorded call on the line's await chain: a subscription re-run a
      // mutation's commit started keeps its own lines, though it runs on the mutation's chain.
      currentScope()?.addLine(level, formatConsoleArgs(args));
      forward.apply(console, args);
    };
    wrapper[FORWARDS_TO] = forward;
    target[level] = wrapper;
  }
  target[INSTALLED] = true;
}
