import { describe, expect, it } from "vitest";
import { defineTable, v } from "../src/index.ts";
import { rpcValue } from "./rpc.ts";

type Note = { _id: string; _creationTime: number; text: string };

describe("the built-in by_creation_time index", () => {
  it("serves creation-time ranges without a declared index", async () => {
    const shardKey = "creation-time-index";
    for (const text of ["a", "b", "c"]) await rpcValue("notes:add", { text }, { shardKey });
    const all = await rpcValue<Note[]>("notes:all", {}, { shardKey });
    const since = await rpcValue<Note[]>(
      "notes:since",
      { since: all[1]!._creationTime },
      { shardKey },
    );
    expect(since.map((note) => note.text)).toEqual(["b", "c"]);
  });

  it("cannot be declared by a table", () => {
    expect(() => defineTable({ text: v.string() }).index("by_creation_time", ["text"])).toThrow(
      "svc: by_creation_time is the built-in index of every table",
    );
  });
});
