/**
 * The admin user search folds Unicode case (issue 52): "émilie" finds
 * "Émilie" through the search index, through the per-row test a broad
 * search walks with, and for terms too short for the index, over real D1
 * and the admin route. A term whose common trigrams are left out of the
 * index lookup is still matched whole, folded.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureMigrated } from "../src/index.ts";
import { ADMIN_TOKENS } from "./fixture/admin.ts";
import { bulkAdmin } from "./fixture/admin-bulk.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";
import { RecordingD1 } from "./fixture/recording-d1.ts";

const db = env.ADMIN_FOLDING;
/** Sees which operand the search index is asked with. */
const recorder = new RecordingD1(db);
const { auth, worker } = bulkAdmin(recorder);

/** Users whose names and emails carry letters outside ASCII, in one case or the other. */
const NAMED = [
  ["fold-emilie", "Émilie Durand", "emilie@fold.test"],
  ["fold-zoe", "ZOË KRAVITZ", "zoe@fold.test"],
  ["fold-sofia", "Σοφία Παππά", "sofia@fold.test"],
  ["fold-li", "李雷", "li@fold.test"],
  ["fold-nandu", "Ñandú Pérez", "nandu@fold.test"],
  ["fold-oskar", "Óskar Þórsson", "ÓSKAR@FOLD.TEST"],
  // Holds " 01234" like "Ölfa 01234" does, but not "Ölfa": found by the index lookup without
  // "Ölf", "lfa", "fa " and "a 0" (every Ölfa user has them), and refused by the row test.
  ["fold-decoy", "Zeta 01234", "zeta@fold.test"],
] as const;
/** More users than a search lists by row id (5,000): a search for them walks and tests each row. */
const BROAD = 6_000;

async function search(term: string, filters = {}): Promise<{ ids: string[]; total: number }> {
  const ids: string[] = [];
  let total = 0;
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({
      search: term,
      limit: "100",
      sort: "email",
      order: "asc",
      ...filters,
    });
    if (cursor !== null) query.set("cursor", cursor);
    const response = await worker.fetch(
      new Request(`${TEST_ORIGIN}/_svc/admin/auth/users?${query}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKENS.ci}` },
      }),
      env,
      createExecutionContext(),
    );
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const page = JSON.parse(text) as {
      users: { id: string }[];
      total: number;
      nextCursor: string | null;
    };
    ids.push(...page.users.map((user) => user.id));
    total = page.total;
    cursor = page.nextCursor;
  } while (cursor !== null);
  return { ids, total };
}

beforeAll(async () => {
  await ensureMigrated(auth);
  const rows = NAMED.map(
    ([id, name, email]) =>
      `('${id}', '${name}', '${email}', 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
  );
  for (let i = 0; i < BROAD; i++) {
    const n = String(i).padStart(5, "0");
    rows.push(
      `('ölfa-${n}', 'Ölfa ${n}', 'olfa-${n}@fold.test', 0, '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z')`,
    );
  }
  const statements = [];
  for (let i = 0; i < rows.length; i += 250) {
    statements.push(
      db.prepare(
        `INSERT INTO "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt") VALUES ${rows.slice(i, i + 250).join(", ")}`,
      ),
    );
  }
  await db.batch(statements);
});

describe("the admin user search", () => {
  it.each([
    ["émilie", ["fold-emilie"]],
    ["ÉMILIE", ["fold-emilie"]],
    ["Émilie", ["fold-emilie"]],
    ["zoë", ["fold-zoe"]],
    ["σοφία", ["fold-sofia"]],
    ["ΣΟΦΊΑ", ["fold-sofia"]],
    ["李雷", ["fold-li"]],
    ["ñandú", ["fold-nandu"]],
    ["óskar@fold", ["fold-oskar"]],
    ["þórsson", ["fold-oskar"]],
  ])("finds %s in any case", async (term, expected) => {
    expect(await search(term)).toEqual({ ids: expected, total: expected.length });
  });

  it("folds terms too short for the index, tested row by row", async () => {
    const { ids } = await search("ñ");
    expect(ids).toEqual(["fold-nandu"]);
    expect((await search("öL")).ids).toHaveLength(BROAD);
    expect((await search("李")).ids).toEqual(["fold-li"]);
  });

  it("folds a search that matches more users than it lists by row id", async () => {
    const lower = await search("ölfa 0");
    expect(lower.ids).toHaveLength(BROAD);
    expect(lower.ids.every((id) => id.startsWith("ölfa-"))).toBe(true);
    const upper = await search("ÖLFA 0");
    expect(upper.ids).toEqual(lower.ids);
  });

  it("folds, through the index, a term with more letters outside ASCII than the row test spells", async () => {
    // Σοφία Παππά: eight letters outside ASCII, 256 case spellings.
    expect(await search("σοφία παππά")).toEqual({ ids: ["fold-sofia"], total: 1 });
  });

  it("matches the whole term when the index is asked without its common trigrams", async () => {
    recorder.statements.length = 0;
    expect(await search("ÖLFA 01234")).toEqual({ ids: ["ölfa-01234"], total: 1 });
    // The operand the statement asked the index with: its `lookup` step, run on its own.
    const lookup = recorder.statements.find((statement) => statement.sql.includes(" lookup("));
    expect(lookup).toBeDefined();
    const steps = lookup!.sql.slice(0, lookup!.sql.indexOf("SELECT COUNT(*) AS total"));
    const asked = await db
      .prepare(`${steps}SELECT operand, narrowed FROM lookup`)
      .bind(...lookup!.binds.slice(0, steps.split("?").length - 1))
      .first<{ operand: string; narrowed: number }>();
    expect(asked).toEqual({ operand: '" 01234"', narrowed: 1 });
    expect(await search("ölfa 01234")).toEqual({ ids: ["ölfa-01234"], total: 1 });
    // With other filters, the candidates are tested after those filters.
    expect(await search("ÖLFA 01234", { role: "user" })).toEqual({ ids: ["ölfa-01234"], total: 1 });
    expect(await search("ÖLFA 01234", { banned: "false" })).toEqual({
      ids: ["ölfa-01234"],
      total: 1,
    });
    expect(await search("zeta 01234")).toEqual({ ids: ["fold-decoy"], total: 1 });
    expect(await search("a 01234")).toEqual({ ids: ["ölfa-01234", "fold-decoy"], total: 2 });
  });
});
