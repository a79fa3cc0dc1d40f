/**
 * `POST /bench/seed-sessions?n=2000`: n users, each with a live session,
 * written straight into the auth database (signing up through better-auth
 * would cost ~50 ms of scrypt each). Answers the session tokens, which the
 * bench sends as `Authorization: Bearer <token>` (the bearer plugin signs an
 * unsigned token itself), so each request can be a different caller.
 */
export async function seedSessions(db: D1Database, url: URL): Promise<Response> {
  const n = Math.min(Number(url.searchParams.get("n") ?? 1000), 50_000);
  const now = new Date().toISOString();
  const expires = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const tokens: string[] = [];
  const statements: D1PreparedStatement[] = [];
  for (let index = 0; index < n; index++) {
    const id = crypto.randomUUID();
    const token = crypto.randomUUID().replaceAll("-", "");
    tokens.push(token);
    statements.push(
      db
        .prepare(
          `INSERT INTO "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt") VALUES (?, ?, ?, 0, ?, ?)`,
        )
        .bind(id, `Caller ${index}`, `caller-${id}@example.com`, now, now),
      db
        .prepare(
          `INSERT INTO "session" ("id", "token", "userId", "expiresAt", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .bind(crypto.randomUUID(), token, id, expires, now, now),
    );
  }
  for (let start = 0; start < statements.length; start += 200) {
    await db.batch(statements.slice(start, start + 200));
  }
  return Response.json({ tokens });
}
