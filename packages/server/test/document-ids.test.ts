import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rpcValue } from "./rpc.ts";

// The REST read the benchmark measures (`GET /_svc/rest/<fn>?id=`): the id check (`v.id`,
// `tableOfId`) and the document `ctx.db.get` answers, through real HTTP into a real shard.
const shardKey = "document-ids";
const SUFFIX = "0123456789abcdefghijklmnop";

const read = (id: string, user = "ann") =>
  exports.default.fetch(
    `http://svc.test/_svc/rest/messages/get?shardKey=${shardKey}&id=${encodeURIComponent(id)}`,
    { headers: { "x-test-user": user } },
  );

describe("document ids on the REST read path", () => {
  it("answers the document's fields, then _id and _creationTime; null for no such document", async () => {
    const id = await rpcValue<string>(
      "messages:send",
      { body: "hello", channel: "general" },
      { user: "ann", shardKey },
    );
    const response = await read(id);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(document)).toEqual(["author", "body", "channel", "_id", "_creationTime"]);
    expect(document).toMatchObject({ author: "ann", body: "hello", channel: "general", _id: id });
    expect(typeof document._creationTime).toBe("number");
    // RLS still decides: another user's read of it is the same null as a missing document.
    expect(await (await read(id, "bob")).json()).toBeNull();
    const missing = await read(`messages_${SUFFIX}`);
    expect(missing.status).toBe(200);
    expect(await missing.json()).toBeNull();
  });

  it("refuses every malformed id with VALIDATION_FAILED on args.id", async () => {
    const malformed = [
      `items_${SUFFIX}`, // another table's id
      `messages_${SUFFIX.slice(1)}`, // 25 characters
      `messages_${SUFFIX}q`, // 27 characters
      `messages_${SUFFIX.slice(1)}A`, // upper case
      `messages_${SUFFIX.slice(1)}-`, // outside the alphabet
      `messages_${SUFFIX.slice(1)}é`, // not ASCII
      `messages_${SUFFIX.slice(1)}_`, // a second separator
      `_${SUFFIX}`, // no table
      `messages${SUFFIX}`, // no separator
      `__proto___${SUFFIX}`, // a table name no schema can own
      "messages_",
      "",
    ];
    for (const id of malformed) {
      const response = await read(id);
      expect({ id, status: response.status }).toEqual({ id, status: 400 });
      expect(await response.json()).toMatchObject({
        code: "VALIDATION_FAILED",
        errors: [{ path: "args.id", message: "expected id of messages" }],
      });
    }
  });
});
