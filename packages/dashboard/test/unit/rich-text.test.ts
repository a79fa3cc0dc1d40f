import { describe, expect, it } from "vitest";
import { parseRichText } from "../../ui/lib/rich-text.ts";

describe("parseRichText", () => {
  it("splits paragraphs on blank lines and marks inline code", () => {
    const text = "Answers `pong <name>`; a check.\n\nSecond `a` b";
    expect(parseRichText(text)).toEqual([
      {
        at: 0,
        parts: [
          { at: 0, text: "Answers ", code: false },
          { at: 8, text: "pong <name>", code: true },
          { at: 21, text: "; a check.", code: false },
        ],
      },
      {
        at: 33,
        parts: [
          { at: 33, text: "Second ", code: false },
          { at: 40, text: "a", code: true },
          { at: 43, text: " b", code: false },
        ],
      },
    ]);
  });

  it("keeps a lone backtick as text and drops empty paragraphs", () => {
    expect(parseRichText("a ` b\n\n\n   \n")).toEqual([
      {
        at: 0,
        parts: [
          { at: 0, text: "a ", code: false },
          { at: 2, text: "`", code: false },
          { at: 3, text: " b", code: false },
        ],
      },
    ]);
  });
});
