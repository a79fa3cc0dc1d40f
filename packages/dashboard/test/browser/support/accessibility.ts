import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

/** axe-core's browser build, injected into pages as a string (the dashboard's CSP allows no inline script tags). */
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/** One axe finding, reduced to what a failing test needs to say. */
interface Finding {
  rule: string;
  impact: string;
  nodes: string[];
}

async function seriousFindings(page: Page): Promise<Finding[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import("axe-core") }).axe;
    const results = await axe.run(document, { resultTypes: ["violations"] });
    return results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({
        rule: violation.id,
        impact: violation.impact ?? "",
        nodes: violation.nodes.map((node) => `${node.target.join(" ")}: ${node.failureSummary}`),
      }));
  });
}

/** Waits for running CSS transitions and animations (a colour change, a drawer sliding in) to end; spinners never do, so they are left out. */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Runs axe-core on what the page shows now, in light and in dark mode
 * (`prefers-color-scheme`), and fails on any serious or critical violation,
 * naming the screen. The page is left in light mode.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await settled(page);
    expect(await seriousFindings(page), `axe on ${screen} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

function luminance(color: string): number {
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map(Number);
  const linear = (value: number) => {
    const channel = value / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/**
 * The WCAG contrast ratio between two colours of an element: `property`
 * (e.g. `color`) against `against`, another of its properties
 * (`background-color`) or a colour (`rgb(23, 26, 33)`).
 */
export async function contrastRatio(
  locator: Locator,
  property: string,
  against: string,
): Promise<number> {
  const [one, other] = await locator.evaluate(
    (element, names) => {
      const style = getComputedStyle(element);
      const read = (name: string) => (name.startsWith("rgb") ? name : style.getPropertyValue(name));
      return [read(names[0]), read(names[1])] as const;
    },
    [property, against] as const,
  );
  const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}
