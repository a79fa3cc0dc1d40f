import { render, screen } from "@testing-library/react";
import { createElement, version } from "react";
import { version as domVersion } from "react-dom";
import { describe, expect, it } from "vitest";

/**
 * The hook tests beside this file only prove React 18 if React 18 is what
 * they ran: the aliases in vitest.config.ts must reach the tests, React
 * Testing Library and the renderer alike.
 */
describe("the React 18 run", () => {
  it("renders with React 18 through React Testing Library", () => {
    expect(version).toMatch(/^18\./);
    expect(domVersion).toMatch(/^18\./);
    render(createElement("p", null, `React ${version}`));
    expect(screen.getByText(/^React 18\./)).toBeTruthy();
  });
});
