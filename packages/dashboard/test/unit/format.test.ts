import { describe, expect, it } from "vitest";
import {
  banLabel,
  describeUserAgent,
  formatBytes,
  initials,
  isoAfter,
  rangeLabel,
  relativeTime,
  utcTime,
} from "../../ui/lib/format.ts";

const NOW = Date.parse("2026-11-23T09:00:00.000Z");

describe("relativeTime", () => {
  it.each([
    { iso: "2026-11-23T08:59:40.000Z", expected: "just now" },
    { iso: "2026-11-23T08:57:00.000Z", expected: "3 minutes ago" },
    { iso: "2026-11-23T07:00:00.000Z", expected: "2 hours ago" },
    { iso: "2026-11-22T09:00:00.000Z", expected: "yesterday" },
    { iso: "2026-11-26T09:00:00.000Z", expected: "in 3 days" },
    { iso: "not a date", expected: "not a date" },
  ])("$iso → $expected", ({ iso, expected }) => {
    expect(relativeTime(iso, NOW, "en")).toBe(expected);
  });
});

describe("rangeLabel", () => {
  it.each([
    { offset: 0, count: 25, total: 132, expected: "1–25 of 132" },
    { offset: 125, count: 7, total: 132, expected: "126–132 of 132" },
    { offset: 0, count: 0, total: 0, expected: "0 of 0" },
    { offset: 0, count: 25, total: 12345, expected: "1–25 of 12,345" },
  ])("$offset +$count of $total", ({ offset, count, total, expected }) => {
    expect(rangeLabel(offset, count, total)).toBe(expected);
  });

  it("marks a total that is a lower bound", () => {
    expect(rangeLabel(0, 25, 10_000, false)).toBe("1–25 of 10,000+");
    expect(rangeLabel(0, 0, 10_000, false)).toBe("0 of 10,000+");
    expect(rangeLabel(10_000, 25, 10_000, false)).toBe("10,001–10,025 of 10,025+");
  });
});

describe("utcTime", () => {
  it("writes the UTC time to the second, for a hover", () => {
    expect(utcTime("2026-11-23T09:00:05.123Z")).toBe("2026-11-23 09:00:05 UTC");
    expect(utcTime("not a time")).toBe("not a time");
  });
});

describe("initials", () => {
  it.each([
    { name: "Ada Lovelace", email: "ada@example.com", expected: "AL" },
    { name: "Grace Brewster Murray Hopper", email: "g@example.com", expected: "GH" },
    { name: "Linus", email: "l@example.com", expected: "LI" },
    { name: "  ", email: "zed@example.com", expected: "ZE" },
    // Cut by grapheme: an emoji, a flag and a decomposed É stay whole.
    { name: "😀 Smile", email: "s@example.com", expected: "😀S" },
    { name: "🇫🇷", email: "f@example.com", expected: "🇫🇷" },
    { name: "E\u0301milie Durand", email: "e@example.com", expected: "E\u0301D" },
    { name: "Émilie", email: "e@example.com", expected: "ÉM" },
  ])("$name", ({ name, email, expected }) => {
    expect(initials(name, email)).toBe(expected);
  });
});

describe("describeUserAgent", () => {
  it.each([
    {
      agent:
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 Version/18.1 Safari/605.1.15",
      expected: "Safari on macOS",
    },
    {
      agent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/142.0 Safari/537.36 Edg/142.0",
      expected: "Edge on Windows",
    },
    {
      agent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Mobile Safari/604.1",
      expected: "Safari on iOS",
    },
    { agent: "curl/8.5.0", expected: "curl" },
    { agent: "SomethingElse/1.0", expected: "SomethingElse/1.0" },
    { agent: null, expected: "Unknown device" },
  ])("$expected", ({ agent, expected }) => {
    expect(describeUserAgent(agent)).toBe(expected);
  });
});

describe("banLabel", () => {
  it("says nothing for an active user, and permanent or until when for a banned one", () => {
    expect(banLabel({ banned: false, banExpires: null })).toBeNull();
    expect(banLabel({ banned: true, banExpires: null })).toBe("Banned permanently");
    expect(banLabel({ banned: true, banExpires: "2026-12-01T10:00:00.000Z" }, "en-GB")).toMatch(
      /^Banned until 1 Dec 2026/,
    );
  });
});

describe("isoAfter", () => {
  it("is an ISO timestamp that many seconds later", () => {
    expect(isoAfter(3600, NOW)).toBe("2026-11-23T10:00:00.000Z");
  });
});

describe("formatBytes", () => {
  it.each([
    { bytes: 0, expected: "0 B" },
    { bytes: 999, expected: "999 B" },
    { bytes: 12_400, expected: "12.4 kB" },
    { bytes: 2_100_000, expected: "2.1 MB" },
    { bytes: 48_000_000, expected: "48 MB" },
  ])("$bytes → $expected", ({ bytes, expected }) => {
    expect(formatBytes(bytes)).toBe(expected);
  });
});
