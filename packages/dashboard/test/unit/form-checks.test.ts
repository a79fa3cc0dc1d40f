import { describe, expect, it } from "vitest";
import { ApiError } from "../../ui/api/client.ts";
import {
  emailProblem,
  footError,
  futureProblem,
  passwordProblem,
  problemsOf,
  requiredProblem,
  serverProblems,
} from "../../ui/lib/form-checks.ts";

const LENGTH = { min: 8, max: 12 };

describe("the form's own checks", () => {
  it("follows the server's password length", () => {
    expect(passwordProblem("short", LENGTH)).toBe("Use at least 8 characters.");
    expect(passwordProblem("just-right", LENGTH)).toBeUndefined();
    expect(passwordProblem("far-too-long-for-it", LENGTH)).toBe("Use at most 12 characters.");
  });

  it("asks for an email, a name and a future time in plain words", () => {
    expect(emailProblem(" ")).toBe("Enter an email address.");
    expect(emailProblem("ann@example")).toBe("Enter an email address like ann@example.com.");
    expect(emailProblem("ann@example.com")).toBeUndefined();
    expect(requiredProblem("  ", "a name")).toBe("Enter a name.");
    const now = Date.parse("2026-11-23T09:00:00");
    expect(futureProblem("", now)).toBe("Pick a date and time.");
    expect(futureProblem("2026-11-23T08:00", now)).toBe("Pick a time in the future.");
    expect(futureProblem("2026-11-23T10:00", now)).toBeUndefined();
  });

  it("keeps only the problems that are there", () => {
    expect(problemsOf({ email: undefined, name: "Enter a name." })).toEqual({
      name: "Enter a name.",
    });
  });
});

describe("the server's validation issues", () => {
  const refusal = new ApiError(400, "VALIDATION_FAILED", "Invalid request: body.name: …", [
    { path: "body.name", message: "must be 1 to 200 characters" },
  ]);

  it("lands at the form's field, as a sentence", () => {
    expect(serverProblems(refusal, ["email", "name"])).toEqual({
      name: "Must be 1 to 200 characters.",
    });
    expect(footError(refusal, ["email", "name"])).toBeNull();
  });

  it("stays at the foot when the form has no such field", () => {
    expect(serverProblems(refusal, ["email"])).toEqual({});
    expect(footError(refusal, ["email"])).toBe(refusal);
    const conflict = new ApiError(409, "CONFLICT", "The user is already banned.");
    expect(footError(conflict, ["name"])).toBe(conflict);
    expect(serverProblems(conflict, ["name"])).toEqual({});
  });
});
