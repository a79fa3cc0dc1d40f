import { describe, expect, it } from "vitest";
import type { SignInLinkKind } from "../../ui/api/types.ts";
import { type SignInChoice, signInChoice } from "../../ui/lib/sign-in-choice.ts";

const BOTH: SignInLinkKind[] = ["magic-link", "password-setup"];

describe("the New user dialog's sign-in link", () => {
  it.each<{
    name: string;
    signInLinks: SignInLinkKind[];
    plugins: string[];
    password: string;
    picked: SignInLinkKind | "none" | null;
    expected: SignInChoice;
  }>([
    {
      name: "no password: the first link the app can send",
      signInLinks: BOTH,
      plugins: ["magic-link"],
      password: "",
      picked: null,
      expected: { offered: BOTH, link: "magic-link", noWayIn: false },
    },
    {
      name: "a typed password: no link offered, nothing sent",
      signInLinks: BOTH,
      plugins: ["magic-link"],
      password: "typed-password",
      picked: null,
      expected: { offered: [], link: "none", noWayIn: false },
    },
    {
      name: "a picked link falls away once a password is typed",
      signInLinks: BOTH,
      plugins: ["magic-link"],
      password: "typed-password",
      picked: "magic-link",
      expected: { offered: [], link: "none", noWayIn: false },
    },
    {
      name: "the operator's pick is kept while offered",
      signInLinks: BOTH,
      plugins: ["magic-link"],
      password: "",
      picked: "password-setup",
      expected: { offered: BOTH, link: "password-setup", noWayIn: false },
    },
    {
      name: "nothing sent, but the app's sign-in page offers a way in",
      signInLinks: ["password-setup"],
      plugins: [],
      password: "",
      picked: "none",
      expected: { offered: ["password-setup"], link: "none", noWayIn: false },
    },
    {
      name: "no links, but email one-time codes: a way in",
      signInLinks: [],
      plugins: ["email-otp"],
      password: "",
      picked: null,
      expected: { offered: [], link: "none", noWayIn: false },
    },
    {
      name: "no password, no link, nothing else: no way in",
      signInLinks: [],
      plugins: ["admin", "passkey"],
      password: "",
      picked: null,
      expected: { offered: [], link: "none", noWayIn: true },
    },
    {
      name: "a password is a way in",
      signInLinks: [],
      plugins: ["admin"],
      password: "typed-password",
      picked: null,
      expected: { offered: [], link: "none", noWayIn: false },
    },
  ])("$name", ({ signInLinks, plugins, password, picked, expected }) => {
    expect(signInChoice({ signInLinks, plugins }, password, picked)).toEqual(expected);
  });
});
