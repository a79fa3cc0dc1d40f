import { createClient, SvcClientError } from "@svc/client";
import { describe, expect, it } from "vitest";
import { api } from "../../svc/_generated/api.ts";
import { appForThisFile, signUpForToken } from "./harness.ts";

const app = appForThisFile();

describe("auth in the example app, end to end over HTTP", () => {
  it("signs up, calls procedures as the user with a bearer token, and RLS keeps users apart", async () => {
    const ann = createClient({
      url: app.url,
      bearer: await signUpForToken(app, "ann@example.com"),
    });
    const bob = createClient({
      url: app.url,
      bearer: await signUpForToken(app, "bob@example.com"),
    });
    const annId = await ann.mutation(api.messages.send, { body: "ann's secret" });
    await bob.mutation(api.messages.send, { body: "bob's note" });
    expect((await ann.query(api.messages.list, {})).map((m) => m.body)).toEqual(["ann's secret"]);
    expect((await bob.query(api.messages.list, {})).map((m) => m.body)).toEqual(["bob's note"]);
    // Bob cannot read ann's message, so for him it does not exist (issue 26, finding 5).
    await expect(bob.mutation(api.messages.remove, { id: annId })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await ann.action(api.tools.wordCount, {})).toEqual({ messages: 1, words: 2 });
    const replayed: unknown[] = [];
    for await (const item of ann.stream(api.messages.replay, {})) replayed.push(item);
    expect(replayed).toEqual([{ body: "ann's secret", at: expect.any(Number) }]);
  });

  it("treats a signed-out or bogus token as anonymous", async () => {
    const token = await signUpForToken(app, "carol@example.com");
    const signOut = await fetch(`${app.url}/api/auth/sign-out`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        origin: app.url,
        "content-type": "application/json",
      },
      body: "{}",
    });
    expect(signOut.status).toBe(200);
    for (const bearer of [token, "not-a-token"]) {
      const client = createClient({ url: app.url, bearer });
      const error = await client
        .mutation(api.messages.send, { body: "x" })
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(SvcClientError);
      expect(error).toMatchObject({ code: "UNAUTHENTICATED" });
    }
  });

  it("reads the same identity over a session cookie", async () => {
    const response = await fetch(`${app.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url },
      body: JSON.stringify({
        email: "dave@example.com",
        password: "a long password",
        name: "Dave",
      }),
    });
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const client = createClient({ url: app.url, cookie });
    await client.mutation(api.messages.send, { body: "via cookie" });
    expect((await client.query(api.messages.list, {})).map((m) => m.body)).toEqual(["via cookie"]);
  });
});
