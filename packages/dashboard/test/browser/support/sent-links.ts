import { expect } from "vitest";
import type { RunningApp } from "./example-app.ts";

/** What the example app's senders print before the link (`examples/app/src/auth.ts`, `auth-plugins.ts`). */
export type SentLinkKind = "magic link" | "password reset link";

/**
 * The last link the example app "emailed" to `email` (its senders print
 * `<kind> for <email>: <url>` to the wrangler console), on the app's own
 * origin: the auth's fallback base URL is not the port the tests run on.
 * Waits for the line, since wrangler's output arrives a little later.
 *
 * @example
 * ```ts
 * const url = await sentLink(app, "magic link", "ann@example.com");
 * ```
 */
export async function sentLink(app: RunningApp, kind: SentLinkKind, email: string): Promise<URL> {
  const prefix = `${kind} for ${email}: `;
  const find = () =>
    app
      .output()
      .split("\n")
      // svc's call records repeat the handler's console lines, with the link's token redacted.
      .filter((line) => line.includes(prefix) && !line.includes('"svc":"call"'))
      .at(-1);
  await expect.poll(find, { timeout: 10_000 }).toBeTruthy();
  const printed = new URL(
    find()!
      .slice(find()!.indexOf(prefix) + prefix.length)
      .trim(),
  );
  return new URL(`${printed.pathname}${printed.search}`, app.url);
}
