import { describe, expect, it } from "vitest";
import { awaitScope, runInAwaitScope } from "../src/observability/await-scope.ts";
import { CallScope } from "../src/observability/call-scope.ts";

type AwaitScopes = typeof import("../src/observability/await-scope.ts");
const V8Error = Error as unknown as { stackTraceLimit: number };

describe("await scopes", () => {
  it("find the innermost call of their own copy of svc, never another copy's", async () => {
    // A second copy of the module, as a second copy of svc in one isolate would have.
    const secondCopy = "../src/observability/await-scope.ts?second-copy";
    const other = (await import(/* @vite-ignore */ secondCopy)) as AwaitScopes;
    expect(other.awaitScope).not.toBe(awaitScope);
    const first = new CallScope();
    const second = new CallScope();
    const theirs = new CallScope();
    const seen: { mine?: object; theirs?: object } = {};
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // `first` holds runner 0 of this copy; `second` takes runner 1 and runs the other copy's call.
    const outer = runInAwaitScope(first, () => held);
    await runInAwaitScope(second, () =>
      other.runInAwaitScope(theirs, async () => {
        await Promise.resolve();
        seen.mine = awaitScope();
        seen.theirs = other.awaitScope();
      }),
    );
    release();
    await outer;
    expect(seen.mine).toBe(second);
    expect(seen.theirs).toBe(theirs);
    // Nothing runs now: no scope, and no stack read.
    expect(awaitScope()).toBeUndefined();
  });

  it("leave the app's stack trace settings as they were", async () => {
    const saved = Object.getOwnPropertyDescriptor(Error, "prepareStackTrace");
    const savedLimit = V8Error.stackTraceLimit;
    const errors = Error as unknown as { prepareStackTrace?: unknown };
    const lookUp = async () => {
      const scope = new CallScope();
      const found = await runInAwaitScope(scope, async () => {
        await Promise.resolve();
        return awaitScope();
      });
      expect(found).toBe(scope);
    };
    try {
      V8Error.stackTraceLimit = 3;
      delete errors.prepareStackTrace;
      await lookUp();
      expect(V8Error.stackTraceLimit).toBe(3);
      expect(Object.hasOwn(Error, "prepareStackTrace")).toBe(false);
      const apps = (_error: unknown, sites: unknown[]) => sites.length;
      errors.prepareStackTrace = apps;
      await lookUp();
      expect(errors.prepareStackTrace).toBe(apps);
    } finally {
      V8Error.stackTraceLimit = savedLimit;
      delete errors.prepareStackTrace;
      if (saved !== undefined) Object.defineProperty(Error, "prepareStackTrace", saved);
    }
  });
});
