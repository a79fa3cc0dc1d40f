import { describe, expect, it } from "vitest";
import { toProblem } from "../src/errors/problem.ts";
import { defineErrorCodes, ERROR_STATUS, SvcError, svcErrorCodes } from "../src/index.ts";

const probeErrors = defineErrorCodes("ProbeError", {
  TIMEOUT: { status: 503, title: "Probe timed out" },
  MISCONFIGURED: { status: 500, title: "Probe misconfigured" },
});
class ProbeError extends probeErrors.Error {
  override readonly name = "ProbeError";
}

describe("defineErrorCodes", () => {
  it("yields a class whose errors carry the code, the message and the cause", () => {
    const cause = new Error("socket closed");
    const error = new ProbeError("TIMEOUT", "No answer within 2 s.", { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(probeErrors.Error);
    expect([error.name, error.code, error.message, error.cause]).toEqual([
      "ProbeError",
      "TIMEOUT",
      "No answer within 2 s.",
      cause,
    ]);
    expect(String(error)).toBe("ProbeError: No answer within 2 s.");
  });

  it("yields the problem-details fields, the code guard and the names", () => {
    expect(probeErrors.problem("MISCONFIGURED", "No secret.")).toEqual({
      type: "urn:svc:error:misconfigured",
      title: "Probe misconfigured",
      status: 500,
      code: "MISCONFIGURED",
      detail: "No secret.",
    });
    expect([probeErrors.isCode("TIMEOUT"), probeErrors.isCode("toString")]).toEqual([true, false]);
    expect(probeErrors.names).toEqual({ TIMEOUT: "TIMEOUT", MISCONFIGURED: "MISCONFIGURED" });
  });

  it("declares SvcError's codes: the same status and title on every path", () => {
    const error = new SvcError("RATE_LIMITED", "Slow down.", { data: { retryIn: 3 } });
    expect(error).toBeInstanceOf(svcErrorCodes.Error);
    expect(ERROR_STATUS.RATE_LIMITED).toBe(429);
    expect(toProblem(error)).toEqual({
      type: "urn:svc:error:rate-limited",
      title: "Too many requests",
      status: 429,
      code: "RATE_LIMITED",
      detail: "Slow down.",
      data: { retryIn: 3 },
    });
  });
});
