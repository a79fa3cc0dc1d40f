import { describe, expect, it } from "vitest";
import {
  logoProblem,
  metadataText,
  parseMetadata,
  slugFrom,
  slugProblem,
} from "../../ui/lib/organization-checks.ts";

describe("organization checks", () => {
  it("suggests a slug the server accepts from a name", () => {
    expect(slugFrom("Acme Robotics, Inc.")).toBe("acme-robotics-inc");
    expect(slugFrom("  Café  Zürich ")).toBe("cafe-zurich");
    expect(slugProblem(slugFrom("Acme Robotics, Inc."))).toBeUndefined();
  });

  it("refuses slugs the server refuses", () => {
    expect(slugProblem("")).toBe("Enter a slug.");
    for (const slug of ["Acme", "acme--labs", "-acme", "acme labs"]) {
      expect(slugProblem(slug)).toMatch(/^Use lowercase letters/);
    }
  });

  it("takes an empty logo, an http(s) URL or an image data URL", () => {
    expect(logoProblem("")).toBeUndefined();
    expect(logoProblem("https://example.com/logo.png")).toBeUndefined();
    expect(logoProblem("data:image/png;base64,AAAA")).toBeUndefined();
    expect(logoProblem("javascript:alert(1)")).toMatch(/^Enter an http\(s\) address/);
    expect(logoProblem("logo.png")).toMatch(/^Enter an http\(s\) address/);
  });

  it("reads metadata as a JSON object, empty meaning none", () => {
    expect(parseMetadata("  ")).toEqual({ value: null });
    expect(parseMetadata('{"plan": "pro"}')).toEqual({ value: { plan: "pro" } });
    expect(parseMetadata("{plan: pro}")).toEqual({
      problem: expect.stringMatching(/^This is not valid JSON: /),
    });
    expect(parseMetadata("[1]")).toEqual({ problem: 'Enter a JSON object, like {"plan": "pro"}.' });
    expect(parseMetadata(JSON.stringify({ big: "x".repeat(10_001) }))).toEqual({
      problem: "Keep the metadata under 10 kB.",
    });
    expect(parseMetadata(metadataText({ plan: "pro" }))).toEqual({ value: { plan: "pro" } });
  });
});
