import { existsSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

const DIST = path.resolve(import.meta.dirname, "../../dist/index.js");

/**
 * The first-load budget the README promises (gzip: app.js, the chunks it
 * imports statically, app.css). Screens other than Users and the export and
 * import dialogs are chunks loaded when opened, so new screens do not count.
 */
const GZIP_BUDGET_BYTES = 40 * 1024;

/** Every chunk a script imports, statically (`from"./chunk-…"`) or with `import("./chunk-…")`. */
function importedChunks(script: string): string[] {
  return [...script.matchAll(/(?:from|import\()\s*"\.\/(chunk-[\w-]+\.js)"/g)].map(
    (match) => match[1]!,
  );
}

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

  const scripts = Object.entries(files).filter(([name]) => name.endsWith(".js"));
  const preloaded = [
    ...html.matchAll(/rel="modulepreload" href="\/_svc\/dashboard\/([^"]+)"/g),
  ].map((match) => match[1]!);

  it("has index.html and every asset it references, each with a content type", () => {
    expect(files["index.html"]?.contentType).toBe("text/html; charset=utf-8");
    const referenced = [
      ...html.matchAll(/(?:src|href)="\/_svc\/dashboard\/((?!chunk-)[^"?]+)(\?v=[0-9a-f]+)?"/g),
    ];
    expect(referenced.map((match) => match[1]).sort()).toEqual(["app.css", "app.js", "icon.svg"]);
    for (const [, name, version] of referenced) {
      expect(files[name!]?.contentType).toBeTruthy();
      expect(version).toMatch(/^\?v=[0-9a-f]{10}$/);
    }
  });

  it("serves every chunk a script imports, and preloads exactly the ones app.js needs first", () => {
    expect(scripts.length).toBeGreaterThan(2);
    for (const [name, file] of scripts) {
      expect(file.contentType, name).toBe("text/javascript; charset=utf-8");
      for (const chunk of importedChunks(file.body))
        expect(files[chunk], `${name} → ${chunk}`).toBeDefined();
    }
    const firstLoad = new Set<string>();
    const visit = (name: string) => {
      const body = files[name]?.body ?? "";
      for (const match of body.matchAll(/from\s*"\.\/(chunk-[\w-]+\.js)"/g)) {
        if (!firstLoad.has(match[1]!)) {
          firstLoad.add(match[1]!);
          visit(match[1]!);
        }
      }
    };
    visit("app.js");
    expect([...preloaded].sort()).toEqual([...firstLoad].sort());
    const lazy = scripts.filter(([name]) => name !== "app.js" && !firstLoad.has(name));
    expect(lazy.length, "screens loaded when opened").toBeGreaterThan(0);
  });

  it("needs no inline script or style, so the strict CSP holds", () => {
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });

  it("never touches localStorage or document.cookie (the token lives in sessionStorage)", () => {
    const script = scripts.map(([, file]) => file.body).join("\n");
    expect(script).toContain("sessionStorage");
    expect(script).not.toContain("localStorage");
    expect(script).not.toContain("document.cookie");
  });

  it(`loads the first screen within ${GZIP_BUDGET_BYTES / 1024} KiB gzip (app.js, its chunks, app.css)`, () => {
    const gzip = ["app.js", ...preloaded, "app.css"]
      .map((name) => gzipSync(files[name]?.body ?? "", { level: 9 }).byteLength)
      .reduce((sum, size) => sum + size, 0);
    expect(gzip).toBeLessThan(GZIP_BUDGET_BYTES);
  });
});
