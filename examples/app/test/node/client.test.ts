import { createClient, SvcClientError } from "@svc/client";
import { describe, expect, it } from "vitest";
import { api } from "../../svc/_generated/api.ts";
import { appForThisFile } from "./harness.ts";

const app = appForThisFile();

describe("the typed client against the example app over real HTTP", () => {
  it("calls a query and gets its typed value", async () => {
    const client = createClient({ url: app.url });
    expect(await client.query(api.hello.ping, { name: "client" })).toBe("pong client");
    expect(await client.query(api.hello.ping)).toBe("pong world");
  });

  it("gets a typed error for bad arguments", async () => {
    const client = createClient({ url: app.url });
    const error = await client
      .query(api.hello.ping, { name: 5 as unknown as string })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SvcClientError);
    expect(error).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
  });

  it("is refused a mutation that needs a signed-in user", async () => {
    const client = createClient({ url: app.url });
    await expect(client.mutation(api.messages.send, { body: "hi" })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
      status: 401,
    });
  });

  it("streams over HTTP and reads public notices", async () => {
    const client = createClient({ url: app.url });
    const items: unknown[] = [];
    for await (const item of client.stream(api.messages.replay, {})) items.push(item);
    expect(items).toEqual([]);
    expect(await client.query(api.messages.notices)).toEqual([]);
  });
});
