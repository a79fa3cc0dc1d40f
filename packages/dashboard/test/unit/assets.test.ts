import { existsSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

const DIST = path.resolve(import.meta.dirname, "../../dist/index.js");

/**
 * The bundle budget the README promises (gzip, app.js + app.css): 40 KiB
 * until export and import (progress, CSV parsing, reports) took it past.
 */
const GZIP_BUDGET_BYTES = 44 * 1024;

describe("the built dashboard (dist/index.js)", async () => {
  if (!existsSync(DIST)) {
    it("exists", () => {
      throw new Error(
        "dist/index.js is missing: run `npm run build --workspace packages/dashboard`",
      );
    });
    return;
  }
  const { dashboardAssets } = await import("@svc/dashboard");
  const files = dashboardAssets.files;
  const html = files["index.html"]?.body ?? "";

  it("has index.html and every asset it references, each with a content type", () => {
    expect(files["index.html"]?.contentType).toBe("text/html; charset=utf-8");
    const referenced = [
      ...html.matchAll(/(?:src|href)="\/_svc\/dashboard\/([^"?]+)(\?v=[0-9a-f]+)?"/g),
    ];
    expect(referenced.map((match) => match[1]).sort()).toEqual(["app.css", "app.js", "icon.svg"]);
    for (const [, name, version] of referenced) {
      expect(files[name!]?.contentType).toBeTruthy();
      expect(version).toMatch(/^\?v=[0-9a-f]{10}$/);
    }
  });

  it("needs no inline script or style, so the strict CSP holds", () => {
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });

  it("never touches localStorage or document.cookie (the token lives in sessionStorage)", () => {
    const script = files["app.js"]?.body ?? "";
    expect(script).toContain("sessionStorage");
    expect(script).not.toContain("localStorage");
    expect(script).not.toContain("document.cookie");
  });

  it(`stays within ${GZIP_BUDGET_BYTES / 1024} KiB gzip for app.js + app.css`, () => {
    const gzip = ["app.js", "app.css"]
      .map((name) => gzipSync(files[name]?.body ?? "", { level: 9 }).byteLength)
      .reduce((sum, size) => sum + size, 0);
    expect(gzip).toBeLessThan(GZIP_BUDGET_BYTES);
  });
});
