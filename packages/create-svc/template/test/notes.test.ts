import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const ORIGIN = "http://127.0.0.1:8787";

async function signUp(email: string): Promise<string> {
  const response = await exports.default.fetch(`${ORIGIN}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ email, password: "a long password", name: email }),
  });
  expect(response.status).toBe(200);
  return response.headers.get("set-auth-token") ?? "";
}

describe("notes over REST", () => {
  it("adds a note for its owner and hides it from everyone else", async () => {
    const ann = await signUp("ann@example.com");
    const bob = await signUp("bob@example.com");
    const added = await exports.default.fetch(`${ORIGIN}/_svc/rest/notes/add`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ann}` },
      body: JSON.stringify({ text: "hello" }),
    });
    expect(added.status).toBe(200);
    const list = (token: string) =>
      exports.default.fetch(`${ORIGIN}/_svc/rest/notes/list`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect(await (await list(ann)).json()).toMatchObject([{ text: "hello" }]);
    expect(await (await list(bob)).json()).toEqual([]);
  });

  it("refuses anonymous writes", async () => {
    const response = await exports.default.fetch(`${ORIGIN}/_svc/rest/notes/add`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "nope" }),
    });
    expect(response.status).toBe(401);
  });
});
